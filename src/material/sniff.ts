/**
 * What the bytes are, read from their first bytes (their "magic number"),
 * and what the declared media type says they should be. Extraction trusts
 * neither alone: bytes that disagree with their declaration (a polyglot, a
 * renamed file) are refused before any parser sees them, because a parser
 * chosen by the declaration would read bytes it was never meant for.
 */
export type Family = 'pdf' | 'docx' | 'png' | 'jpeg' | 'gif' | 'webp' | 'tiff' | 'text' | 'media';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const DECLARED: Readonly<Record<string, Family>> = {
  'application/pdf': 'pdf',
  [DOCX]: 'docx',
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/tiff': 'tiff',
  'application/json': 'text',
  'application/xml': 'text',
  // Audio and video: one family, read for their metadata by one parser that tells the containers apart itself.
  ...Object.fromEntries(
    [
      'audio/wav',
      'audio/x-wav',
      'audio/wave',
      'audio/mpeg',
      'audio/ogg',
      'audio/flac',
      'audio/mp4',
      'audio/x-m4a',
      'audio/webm',
      'video/mp4',
      'video/quicktime',
      'video/webm',
      'video/x-matroska',
      'video/ogg',
    ].map((t) => [t, 'media' as const]),
  ),
};

/** The family a declared media type promises, or null when no extractor reads it. */
export function declaredFamily(mediaType: string): Family | null {
  if (mediaType.startsWith('text/')) return 'text';
  return DECLARED[mediaType] ?? null;
}

const startsWith = (bytes: Buffer, magic: number[], at = 0) => magic.every((b, i) => bytes[at + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
// How much of the start is read to tell text from binary: a NUL there means binary.
const TEXT_PROBE_BYTES = 8192;

/** The family the first bytes show, or null when they match none we read. */
export function sniffFamily(head: Buffer): Family | null {
  if (startsWith(head, ascii('%PDF-'))) return 'pdf';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))) return 'gif';
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return 'webp';
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  if (isMedia(head)) return 'media';
  // A DOCX is a ZIP; which ZIP it is, the extractor checks from its entries.
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return 'docx';
  return looksLikeText(head.subarray(0, TEXT_PROBE_BYTES)) ? 'text' : null;
}

/** RIFF/WAVE, MP3 (ID3 or a frame sync), Ogg, FLAC, the ISO media family (MP4, MOV, M4A) and Matroska/WebM. */
function isMedia(head: Buffer): boolean {
  return (
    (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WAVE'), 8)) ||
    startsWith(head, ascii('ID3')) ||
    (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0) ||
    startsWith(head, ascii('OggS')) ||
    startsWith(head, ascii('fLaC')) ||
    startsWith(head, ascii('ftyp'), 4) ||
    startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])
  );
}

function looksLikeText(probe: Buffer): boolean {
  if (probe.length === 0 || probe.includes(0)) return false;
  // A multi-byte character cut at the probe's end is not an error: only the bytes before the last 3 must decode.
  const decoded = new TextDecoder('utf-8', { fatal: false }).decode(probe.subarray(0, Math.max(0, probe.length - 3)));
  return !decoded.includes('\uFFFD');
}

export type Verdict = { ok: true; family: Family } | { ok: false; reason: 'unsupported_media_type' | 'media_type_mismatch' };

export function judgeBytes(mediaType: string, head: Buffer): Verdict {
  const declared = declaredFamily(mediaType);
  if (declared === null) return { ok: false, reason: 'unsupported_media_type' };
  const seen = sniffFamily(head);
  return seen === declared ? { ok: true, family: declared } : { ok: false, reason: 'media_type_mismatch' };
}
