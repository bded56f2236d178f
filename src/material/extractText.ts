import { createHash } from 'node:crypto';
import { extractIdentifiers } from '../checks/extractIdentifiers.js';

/**
 * Identifiers in a piece of inline text material, with text bindings. The
 * text is read line by line with the session extractor (src/checks/extractIdentifiers.ts)
 * and every offset is moved back into the whole text: `start` inclusive, `end`
 * exclusive, UTF-16 code units, what `String.prototype.slice` takes.
 *
 * Nothing here keeps the text: the caller gets derived values only, so a
 * transient material's content dies with the request (rule D35).
 */
export const TEXT_EXTRACTOR_VERSION = 'text-identifiers/1';

/** At most this many items per piece of material: enough for any real document, bounded for a pasted dump. */
export const MAX_ITEMS_PER_MATERIAL = 1000;

// How sure a pattern match is that it is the thing it names. A bare domain is
// the loosest reading (a sentence ending "…version 2.5.tar" looks like one).
const CONFIDENCE: Record<string, number> = { EMAIL: 0.95, URL: 0.95, IP: 0.9, PHONE: 0.85, DOMAIN: 0.7 };

export interface ExtractedIdentifier {
  type: string;
  /** Canonical form (src/checks/normalise.ts). */
  normalised: string;
  start: number;
  end: number;
  confidence: number;
}

export function extractFromText(text: string, opts: { defaultCountry?: string } = {}): ExtractedIdentifier[] {
  const out: ExtractedIdentifier[] = [];
  let base = 0;
  for (const line of text.split('\n')) {
    if (line.length > 0) {
      for (const found of extractIdentifiers(line, opts.defaultCountry ? { defaultCountry: opts.defaultCountry } : {})) {
        out.push({
          type: found.presentation.type,
          normalised: found.presentation.normalised,
          start: base + found.start,
          end: base + found.end,
          confidence: CONFIDENCE[found.presentation.type] ?? 0.5,
        });
        if (out.length >= MAX_ITEMS_PER_MATERIAL) return out;
      }
    }
    base += line.length + 1;
  }
  return out;
}

export function sha256Hex(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

/**
 * What a C2 item keeps in place of its value: a digest of its canonical form
 * keyed by tenant and mode, so equal values match within a tenant and a
 * digest says nothing across tenants.
 */
export function fingerprintOf(scope: { tenantId: string; mode: string }, type: string, normalised: string): string {
  return sha256Hex(`${scope.tenantId}\u0000${scope.mode}\u0000${type}\u0000${normalised}`);
}
