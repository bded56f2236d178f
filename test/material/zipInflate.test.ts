import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ExtractionFailure } from '../../src/material/extractors/types.js';
import { checkInflatedSizes, checkZipExpansion, MAX_RATIO } from '../../src/material/extractors/zipLimits.js';
import { extractInParser } from '../../src/material/parserProcess.js';
import { docx } from '../support/documents.js';

/**
 * A ZIP whose central directory lies about its sizes (issue 40): the check of
 * the declared sizes passes it, and the count made while inflating stops it.
 */
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** A one-entry archive, its sizes in both headers replaced by `declaredSize`. Written by hand: no ZIP library writes a lie. */
function lyingZip(name: string, content: Buffer, declaredSize: number): Buffer {
  const data = deflateRawSync(content, { level: 9 });
  const file = Buffer.from(name, 'utf8');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(declaredSize, 22);
  local.writeUInt16LE(file.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(declaredSize, 24);
  central.writeUInt16LE(file.length, 28);
  central.writeUInt32LE(0, 42);
  const directoryAt = local.length + file.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + file.length, 12);
  end.writeUInt32LE(directoryAt, 16);
  return Buffer.concat([local, file, data, central, file, end]);
}

describe('ZIP sizes checked while inflating', () => {
  it('a bomb whose central directory claims 1 KiB passes the declared check and is stopped while inflating, as too_large', async () => {
    const inflated = 64 * 1024 * 1024;
    const bomb = lyingZip('word/document.xml', Buffer.alloc(inflated, 0x20), 1024);
    const entries = checkZipExpansion(bomb);
    expect(entries).toMatchObject([{ name: 'word/document.xml', size: 1024 }]);
    const stopped = await checkInflatedSizes(bomb, entries).then(
      () => null,
      (error: unknown) => error,
    );
    expect(stopped).toBeInstanceOf(ExtractionFailure);
    expect((stopped as ExtractionFailure).reason).toBe('too_large');
    // The limit is the ratio to the file here (a few kilobytes may inflate to at most MAX_RATIO times themselves).
    expect(MAX_RATIO * bomb.length).toBeLessThan(inflated);
  });

  it('the same bomb uploaded as a DOCX ends too_large in the parser, before the document parser inflates it', async () => {
    const bomb = lyingZip('word/document.xml', Buffer.alloc(64 * 1024 * 1024, 0x20), 1024);
    const failed = await extractInParser('docx', bomb, {}, DOCX).then(
      () => null,
      (error: unknown) => error,
    );
    expect((failed as ExtractionFailure).reason).toBe('too_large');
  });

  it('an honest archive inflates to the sizes it declares', async () => {
    const bytes = await docx(['Reply to ops@example.org', 'or call +44 20 7183 8750']);
    const entries = checkZipExpansion(bytes);
    expect(await checkInflatedSizes(bytes, entries)).toBe(entries.reduce((sum, e) => sum + e.size, 0));
  });

  it('an entry whose data lies outside the file is corrupt', async () => {
    const bytes = await docx(['hello']);
    const entries = checkZipExpansion(bytes).map((e) => ({ ...e, compressedSize: bytes.length * 2 }));
    const failed = await checkInflatedSizes(bytes, entries).then(
      () => null,
      (error: unknown) => error,
    );
    expect((failed as ExtractionFailure).reason).toBe('corrupt');
  });
});
