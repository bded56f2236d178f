import { createHash, hash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256, sha256Through, type OneShot } from '../../src/platform/digest.js';

const reference = (text: string, encoding: 'hex' | 'base64url') => createHash('sha256').update(text).digest(encoding);

describe('sha256', () => {
  it('given the abc test vector of FIPS 180-2, when digested, then it is the published digest', () => {
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it.each([
    ['the one-shot digest', hash as unknown as OneShot],
    ['a hash object per digest (Node before 20.12)', undefined],
  ])('given any text, when digested through %s, then it is the bytes of createHash', (_given, oneShot) => {
    const digest = sha256Through(oneShot);
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.constantFrom('hex' as const, 'base64url' as const), (text, encoding) => {
        expect(digest(text, encoding)).toBe(reference(text, encoding));
      }),
    );
  });
});
