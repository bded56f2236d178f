import exifr from 'exifr';
import { createWorker, OEM } from 'tesseract.js';
import { englishModelDirectory } from '../ocr.js';
import type { Family } from '../sniff.js';
import { claimOf, identifiersIn } from './textLines.js';
import { ExtractionFailure, type ExtractedThing, type ExtractOptions } from './types.js';

/**
 * Text in an image by OCR (tesseract.js, the tesseract engine compiled to
 * WebAssembly, with its English LSTM model from the npm package
 * @tesseract.js-data/eng: nothing is downloaded and no system package is
 * needed), line by line, each identifier bound to its line's region; and
 * what the file says about itself in EXIF (device, creation time, author,
 * GPS position) as claims.
 *
 * The image's size is read from its header before OCR: an image of more than
 * MAX_PIXELS is a decompression bomb (a few kilobytes of PNG can declare
 * gigapixels) and is refused. OCR runs inside the parser process, under its
 * memory, CPU and time limits (src/material/parserProcess.ts).
 */
export const MAX_PIXELS = 40_000_000;
// OCR output is bounded like any text we extract from.
const MAX_OCR_OUTPUT_BYTES = 16 * 1024 * 1024;

export async function extractImage(bytes: Buffer, family: Family, opts: ExtractOptions): Promise<ExtractedThing[]> {
  const size = dimensions(bytes, family);
  if (size !== null && size.width * size.height > MAX_PIXELS) throw new ExtractionFailure('too_large');
  const [lines, claims] = await Promise.all([ocrLines(bytes), exifClaims(bytes)]);
  // An OCR word is a reading, not a certainty: its confidence scales the pattern's own.
  const found = lines.flatMap((l) => identifiersIn(l.text, 'image', { page: 1, x: l.x, y: l.y, w: l.w, h: l.h }, opts, l.confidence));
  return [...found, ...claims];
}

interface OcrLine {
  text: string;
  x: number;
  y: number;
  w: number;
  h: number;
  confidence: number;
}

/** Runs OCR with TSV output and joins its words into lines with their bounding boxes. */
async function ocrLines(bytes: Buffer): Promise<OcrLine[]> {
  const tsv = await recognise(bytes);
  const lines = new Map<string, { words: string[]; x0: number; y0: number; x1: number; y1: number; conf: number[] }>();
  for (const row of tsv.split('\n')) {
    const cols = row.split('\t');
    // level 5 is a word: page, block, paragraph, line, word, left, top, width, height, confidence, text.
    if (cols.length < 12 || cols[0] !== '5' || cols[11]!.trim() === '') continue;
    const [left, top, width, height, conf] = cols.slice(6, 11).map(Number) as [number, number, number, number, number];
    const key = cols.slice(1, 5).join('.');
    const line = lines.get(key) ?? { words: [], x0: left, y0: top, x1: left + width, y1: top + height, conf: [] };
    line.words.push(cols[11]!.trim());
    line.x0 = Math.min(line.x0, left);
    line.y0 = Math.min(line.y0, top);
    line.x1 = Math.max(line.x1, left + width);
    line.y1 = Math.max(line.y1, top + height);
    line.conf.push(Math.max(0, Math.min(100, conf)) / 100);
    lines.set(key, line);
  }
  return [...lines.values()].map((l) => ({
    text: l.words.join(' '),
    x: l.x0,
    y: l.y0,
    w: l.x1 - l.x0,
    h: l.y1 - l.y0,
    confidence: l.conf.reduce((a, b) => a + b, 0) / l.conf.length,
  }));
}

async function recognise(bytes: Buffer): Promise<string> {
  const worker = await createWorker('eng', OEM.LSTM_ONLY, {
    langPath: englishModelDirectory(),
    gzip: true,
    // Read from the package, never written anywhere, never fetched.
    cacheMethod: 'none',
    logger: () => undefined,
    errorHandler: () => undefined,
  });
  try {
    let tsv: string;
    try {
      tsv = (await worker.recognize(bytes, {}, { text: false, blocks: false, tsv: true })).data.tsv ?? '';
    } catch (error) {
      // The engine ran out of its memory (the process's limit), or could not read the picture (truncated, unsupported).
      throw new ExtractionFailure(/memory|OOM|allocation/i.test(String(error)) ? 'too_large' : 'corrupt');
    }
    if (Buffer.byteLength(tsv) > MAX_OCR_OUTPUT_BYTES) throw new ExtractionFailure('too_large');
    return tsv;
  } finally {
    await worker.terminate();
  }
}

async function exifClaims(bytes: Buffer): Promise<ExtractedThing[]> {
  const tags = (await exifr.parse(bytes, { gps: true, tiff: true, exif: true, xmp: false, icc: false, iptc: false }).catch(() => null)) as
    Record<string, unknown> | null | undefined;
  if (!tags) return [];
  const device = [tags.Make, tags.Model].filter((v) => typeof v === 'string' && v.trim() !== '').join(' ');
  const created =
    tags.DateTimeOriginal instanceof Date && !Number.isNaN(tags.DateTimeOriginal.getTime()) ? tags.DateTimeOriginal.toISOString() : null;
  const gps =
    typeof tags.latitude === 'number' && typeof tags.longitude === 'number'
      ? `${tags.latitude.toFixed(6)},${tags.longitude.toFixed(6)}`
      : null;
  return [
    claimOf('capture_device', device, 'Make Model'),
    claimOf('capture_time', created, 'DateTimeOriginal'),
    claimOf('document_author', tags.Artist, 'Artist'),
    claimOf('capture_position', gps, 'GPSLatitude GPSLongitude'),
  ].filter((c): c is ExtractedThing => c !== null);
}

/** Width and height from the header, for the formats whose header says it simply; null for the rest. */
export function dimensions(bytes: Buffer, family: Family): { width: number; height: number } | null {
  if (family === 'png' && bytes.length >= 24) return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  if (family === 'gif' && bytes.length >= 10) return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  if (family === 'jpeg') return jpegDimensions(bytes);
  return null;
}

// Start-of-frame markers carry the size; C4 (Huffman tables), C8 and CC (arithmetic coding) do not.
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpegDimensions(bytes: Buffer): { width: number; height: number } | null {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (isStartOfFrame(marker)) return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return null;
}
