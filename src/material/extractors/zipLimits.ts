import { ExtractionFailure } from './types.js';

/**
 * Checks a ZIP (a DOCX is one) from its central directory before anything
 * inflates it: the sizes its entries declare, summed, must stay under
 * MAX_EXPANDED_BYTES and under MAX_RATIO times the file itself. A
 * decompression bomb declares gigabytes from kilobytes and is refused here;
 * an archive that lies about its sizes is stopped by the thread's memory
 * limit (extractBytesOffLoop.ts).
 */
export const MAX_EXPANDED_BYTES = 200 * 1024 * 1024;
export const MAX_RATIO = 200;
const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
// The end record is 22 bytes plus a comment of at most 65,535.
const END_SEARCH_BYTES = 22 + 0xffff;

export function checkZipExpansion(bytes: Buffer): string[] {
  const end = findEndOfDirectory(bytes);
  const entries = bytes.readUInt16LE(end + 10);
  let offset = bytes.readUInt32LE(end + 16);
  let expanded = 0;
  const names: string[] = [];
  for (let i = 0; i < entries; i += 1) {
    if (offset + 46 > bytes.length || bytes.readUInt32LE(offset) !== DIRECTORY_ENTRY) throw new ExtractionFailure('corrupt');
    expanded += bytes.readUInt32LE(offset + 24);
    const nameLength = bytes.readUInt16LE(offset + 28);
    names.push(bytes.toString('utf8', offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + bytes.readUInt16LE(offset + 30) + bytes.readUInt16LE(offset + 32);
  }
  if (expanded > MAX_EXPANDED_BYTES || expanded > MAX_RATIO * bytes.length) throw new ExtractionFailure('too_large');
  return names;
}

function findEndOfDirectory(bytes: Buffer): number {
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - END_SEARCH_BYTES); at -= 1) {
    if (bytes.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  }
  throw new ExtractionFailure('corrupt');
}
