import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { checkedInDocument } from '../../src/openapi/checkedIn.js';

describe('docs/openapi.json', () => {
  it('is exactly what the code builds, byte for byte, twice in a row', async () => {
    const committed = await readFile(new URL('../../docs/openapi.json', import.meta.url), 'utf8');
    const built = await checkedInDocument();
    // When this fails: run `npm run docs:openapi` and commit docs/openapi.json.
    expect(built).toBe(committed);
    expect(await checkedInDocument()).toBe(built);
  });
});
