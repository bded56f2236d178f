import { randomBytes } from 'node:crypto';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { checkZipExpansion, readZipEntry } from '../../src/material/extractors/zipLimits.js';

/** readZipEntry is a pure function over the archive's bytes: tested as one, on hostile entries too. */
async function archive(files: Record<string, string | Buffer>, compression: 'STORE' | 'DEFLATE'): Promise<Buffer> {
  const zip = new JSZip();
  for (const [name, content] of Object.entries(files)) zip.file(name, content);
  return zip.generateAsync({ type: 'nodebuffer', compression });
}

describe('reading one small entry of a ZIP', () => {
  it.each(['STORE', 'DEFLATE'] as const)('reads a %s entry by its central directory record', async (compression) => {
    const bytes = await archive({ 'a.txt': 'first', 'docProps/core.xml': '<x>hello</x>' }, compression);
    const entry = checkZipExpansion(bytes).find((e) => e.name === 'docProps/core.xml')!;
    expect(readZipEntry(bytes, entry, 1024)?.toString('utf8')).toBe('<x>hello</x>');
  });

  it('refuses an entry that inflates past the cap, whatever size it declares', async () => {
    // Hex text compresses about twofold: under the archive's ratio limit, over this entry's cap.
    const bytes = await archive({ 'docProps/core.xml': randomBytes(4000).toString('hex') }, 'DEFLATE');
    const entry = checkZipExpansion(bytes).find((e) => e.name === 'docProps/core.xml')!;
    expect(readZipEntry(bytes, entry, 1024)).toBeNull();
    // The same entry lying about its size (declared tiny) is still stopped by the inflater's own limit.
    expect(readZipEntry(bytes, { ...entry, size: 10 }, 1024)).toBeNull();
  });

  it('returns null for a header outside the file, a wrong signature or an unknown method', async () => {
    const bytes = await archive({ 'docProps/core.xml': '<x>hello</x>' }, 'DEFLATE');
    const entry = checkZipExpansion(bytes).find((e) => e.name === 'docProps/core.xml')!;
    expect(readZipEntry(bytes, { ...entry, localHeaderOffset: bytes.length + 10 }, 1024)).toBeNull();
    expect(readZipEntry(bytes, { ...entry, localHeaderOffset: 1 }, 1024)).toBeNull();
    expect(readZipEntry(bytes, { ...entry, method: 12 }, 1024)).toBeNull();
    expect(readZipEntry(bytes, { ...entry, compressedSize: bytes.length * 2 }, 1024)).toBeNull();
  });
});
