import { createInflateRaw, inflateRawSync } from 'node:zlib';
import { ExtractionFailure } from './types.js';

/**
 * Checks a ZIP (a DOCX is one) from its central directory before anything
 * inflates it: the sizes its entries declare, summed, must stay under
 * MAX_EXPANDED_BYTES and under MAX_RATIO times the file itself. A
 * decompression bomb declares gigabytes from kilobytes and is refused here.
 * An archive that lies about its sizes is stopped while inflating
 * (checkInflatedSizes): every entry is inflated once, counting bytes and
 * keeping none, and the count stops at the same limits, whatever the central
 * directory claims. The parser then reads only archives that passed both.
 */
export const MAX_EXPANDED_BYTES = 200 * 1024 * 1024;
export const MAX_RATIO = 200;
const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
// The end record is 22 bytes plus a comment of at most 65,535.
const END_SEARCH_BYTES = 22 + 0xffff;

/** One file of the archive as its central directory describes it. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated; anything else is not read. */
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

export function checkZipExpansion(bytes: Buffer): ZipEntry[] {
  const end = findEndOfDirectory(bytes);
  const count = bytes.readUInt16LE(end + 10);
  let offset = bytes.readUInt32LE(end + 16);
  let expanded = 0;
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i += 1) {
    if (offset + 46 > bytes.length || bytes.readUInt32LE(offset) !== DIRECTORY_ENTRY) throw new ExtractionFailure('corrupt');
    const size = bytes.readUInt32LE(offset + 24);
    expanded += size;
    const nameLength = bytes.readUInt16LE(offset + 28);
    entries.push({
      name: bytes.toString('utf8', offset + 46, offset + 46 + nameLength),
      method: bytes.readUInt16LE(offset + 10),
      compressedSize: bytes.readUInt32LE(offset + 20),
      size,
      localHeaderOffset: bytes.readUInt32LE(offset + 42),
    });
    offset += 46 + nameLength + bytes.readUInt16LE(offset + 30) + bytes.readUInt16LE(offset + 32);
  }
  if (expanded > MAX_EXPANDED_BYTES || expanded > MAX_RATIO * bytes.length) throw new ExtractionFailure('too_large');
  return entries;
}

const LOCAL_HEADER = 0x04034b50;

/**
 * Inflates every entry, counting its bytes and keeping none, and stops as
 * soon as the total passes MAX_EXPANDED_BYTES or MAX_RATIO times the file:
 * `too_large`, whatever the entries declare. An entry whose data lies outside
 * the file, or whose method is neither stored nor deflate, is `corrupt` (the
 * parser could not read it either). Returns the bytes inflated.
 */
export async function checkInflatedSizes(bytes: Buffer, entries: ZipEntry[]): Promise<number> {
  const limit = Math.min(MAX_EXPANDED_BYTES, MAX_RATIO * bytes.length);
  let total = 0;
  for (const entry of entries) {
    const data = entryData(bytes, entry);
    if (data === null || (entry.method !== 0 && entry.method !== 8)) throw new ExtractionFailure('corrupt');
    if (entry.method === 0) total += data.length;
    else total = await countInflated(data, total, limit);
    if (total > limit) throw new ExtractionFailure('too_large');
  }
  return total;
}

/** The compressed bytes of an entry, by its local header, or null when they lie outside the file. */
function entryData(bytes: Buffer, entry: ZipEntry): Buffer | null {
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== LOCAL_HEADER) return null;
  const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
  const data = bytes.subarray(start, start + entry.compressedSize);
  return data.length === entry.compressedSize ? data : null;
}

/** `total` plus this entry's inflated size; the inflater is destroyed the moment the sum passes `limit`. */
function countInflated(data: Buffer, total: number, limit: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const inflater = createInflateRaw();
    let sum = total;
    inflater.on('data', (chunk: Buffer) => {
      sum += chunk.length;
      if (sum > limit) {
        inflater.destroy();
        reject(new ExtractionFailure('too_large'));
      }
    });
    inflater.on('error', () => reject(new ExtractionFailure('corrupt')));
    inflater.on('end', () => resolve(sum));
    inflater.end(data);
  });
}

/**
 * The bytes of one small entry (a metadata part), or null when it cannot be
 * read safely: a method other than stored or deflate, a header that points
 * outside the file, or more than `maxBytes` once inflated (the inflater
 * stops there, whatever the entry declares).
 */
export function readZipEntry(bytes: Buffer, entry: ZipEntry, maxBytes: number): Buffer | null {
  if (entry.size > maxBytes) return null;
  const data = entryData(bytes, entry);
  if (data === null) return null;
  if (entry.method === 0) return data.length <= maxBytes ? data : null;
  if (entry.method !== 8) return null;
  try {
    return inflateRawSync(data, { maxOutputLength: maxBytes });
  } catch {
    return null;
  }
}

function findEndOfDirectory(bytes: Buffer): number {
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - END_SEARCH_BYTES); at -= 1) {
    if (bytes.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  }
  throw new ExtractionFailure('corrupt');
}
