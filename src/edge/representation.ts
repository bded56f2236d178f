import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * How an answer's body goes on the wire (issue 16):
 * - a successful GET carries a strong ETag of its body, and a request whose
 *   If-None-Match names it gets 304 with no body (RFC 9110 13.1.2): clients
 *   polling a ledger, the registry or the 145 KB OpenAPI document pay for
 *   the bytes once;
 * - a body of COMPRESS_FROM bytes or more goes out with brotli or gzip when
 *   the client asks for it (Accept-Encoding), with Vary: Accept-Encoding.
 *   Event streams never come through here, so they are never compressed.
 */
export const COMPRESS_FROM = 1024;
// Brotli's default (11) costs tens of milliseconds on the document; 4 compresses nearly as well in one.
const BROTLI_QUALITY = 4;

export function etagOf(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** Whether an If-None-Match header names this entity tag (weak comparison, `*` matches any). */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

function accepts(acceptEncoding: string, coding: string): boolean {
  return acceptEncoding.split(',').some((part) => {
    const [name, ...params] = part.trim().split(';');
    if (name?.trim().toLowerCase() !== coding) return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** The body encoded as the client prefers (br, then gzip), or null to send it as is. */
export function encodedFor(acceptEncoding: string | undefined, body: string | Buffer): { coding: 'br' | 'gzip'; bytes: Buffer } | null {
  if (acceptEncoding === undefined || Buffer.byteLength(body) < COMPRESS_FROM) return null;
  if (accepts(acceptEncoding, 'br')) {
    return { coding: 'br', bytes: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }) };
  }
  if (accepts(acceptEncoding, 'gzip')) return { coding: 'gzip', bytes: gzipSync(body) };
  return null;
}
