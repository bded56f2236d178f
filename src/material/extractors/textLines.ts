import { extractFromText } from '../extractText.js';
import type { ExtractedThing, ExtractOptions } from './types.js';

/** Identifiers in one stretch of text (a page, a paragraph, an OCR line), each bound by `where` plus its offsets. */
export function identifiersIn(
  text: string,
  locatorKind: ExtractedThing['locatorKind'],
  where: Record<string, unknown>,
  opts: ExtractOptions,
  confidenceFactor = 1,
): ExtractedThing[] {
  return extractFromText(text, opts).map((x) => ({
    type: x.type,
    normalised: x.normalised,
    targetKind: 'artifact',
    locatorKind,
    locator: { ...where, start: x.start, end: x.end },
    confidence: Math.round(x.confidence * confidenceFactor * 1000) / 1000,
  }));
}

/** A claim the file makes about itself, from a metadata field; long or empty values are not claims. */
export function claimOf(type: string, value: unknown, field: string): ExtractedThing | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = String(value).trim();
  if (text.length === 0 || text.length > MAX_CLAIM_CHARS) return null;
  return { type, normalised: text, targetKind: 'claim', locatorKind: 'structured', locator: { field }, confidence: 1 };
}

// Metadata fields are short by nature; a longer value is filler or an attack, not a name.
const MAX_CLAIM_CHARS = 200;
