import mammoth from 'mammoth';
import { claimOf, identifiersIn } from './textLines.js';
import { ExtractionFailure, type ExtractedThing, type ExtractOptions } from './types.js';
import { checkInflatedSizes, checkZipExpansion, readZipEntry, type ZipEntry } from './zipLimits.js';

/**
 * Text from a Word document (mammoth), paragraph by paragraph, with each
 * identifier bound to its paragraph, and what the document says about
 * itself as claims: its author and last editor (docProps/core.xml) and the
 * application that wrote it (docProps/app.xml), as for PDF. The archive's
 * declared sizes are checked first, then its real ones while inflating
 * (zipLimits.ts); a ZIP that is not a Word
 * document (no `word/document.xml`) disagrees with its declared type.
 */
export async function extractDocx(bytes: Buffer, opts: ExtractOptions): Promise<ExtractedThing[]> {
  const entries = checkZipExpansion(bytes);
  if (!entries.some((e) => e.name === 'word/document.xml')) throw new ExtractionFailure('media_type_mismatch');
  // The declared sizes may lie: inflate once, counting, before mammoth inflates anything.
  await checkInflatedSizes(bytes, entries);
  let text: string;
  try {
    text = (await mammoth.extractRawText({ buffer: bytes })).value;
  } catch {
    throw new ExtractionFailure('corrupt');
  }
  // mammoth ends every paragraph with a blank line.
  const paragraphs = text.split('\n\n');
  return [...paragraphs.flatMap((p, i) => identifiersIn(p, 'document', { paragraph: i + 1 }, opts)), ...metadataClaims(bytes, entries)];
}

// Property parts are a few hundred bytes; anything far larger is not a property part.
const MAX_PROPERTIES_BYTES = 64 * 1024;

/** (part, element, claim type): the Office properties read as claims, named by the element they came from. */
const PROPERTIES: readonly [string, string, string][] = [
  ['docProps/core.xml', 'dc:creator', 'document_author'],
  ['docProps/core.xml', 'cp:lastModifiedBy', 'document_last_editor'],
  ['docProps/app.xml', 'Application', 'document_tool'],
];

function metadataClaims(bytes: Buffer, entries: ZipEntry[]): ExtractedThing[] {
  const parts = new Map<string, string | null>();
  const partText = (name: string) => {
    if (!parts.has(name)) {
      const entry = entries.find((e) => e.name === name);
      parts.set(name, entry ? (readZipEntry(bytes, entry, MAX_PROPERTIES_BYTES)?.toString('utf8') ?? null) : null);
    }
    return parts.get(name) ?? null;
  };
  return PROPERTIES.map(([part, element, type]) => {
    const xml = partText(part);
    return xml === null ? null : claimOf(type, elementText(xml, element), element);
  }).filter((c): c is ExtractedThing => c !== null);
}

/**
 * The text of the first `<element>` of a property part. These parts hold
 * flat elements with text only, so a pattern reads them; entities are
 * decoded, and markup inside an element (which the format does not allow)
 * makes the value unread rather than guessed.
 */
function elementText(xml: string, element: string): string | null {
  const name = element.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`<${name}(?:\\s[^>]*)?>([^<]*)</${name}>`).exec(xml);
  return match ? decodeEntities(match[1]!) : null;
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|apos);/gi, (_m, code: string) => {
    const lower = code.toLowerCase();
    if (lower.startsWith('#x')) return safeCodePoint(Number.parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return safeCodePoint(Number.parseInt(lower.slice(1), 10));
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[lower]!;
  });
}

function safeCodePoint(code: number): string {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
}
