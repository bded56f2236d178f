import { describe, expect, it } from 'vitest';
import { generateKey, hashKey, newSalt, parseKey, verifyKeyHash } from '../../src/auth/apiKey.js';

describe('API key tokens (rule I11)', () => {
  it('given a generated key, when parsed, then it yields its mode and key id', () => {
    const { token, keyId } = generateKey('test');
    expect(token.startsWith('tas_test_')).toBe(true);
    expect(parseKey(token)).toEqual({ mode: 'test', keyId, token });
  });

  it('given two generated keys, then their secrets differ', () => {
    expect(generateKey('live').token).not.toBe(generateKey('live').token);
  });

  it.each([
    ['one character changed', (t: string) => t.slice(0, 20) + (t[20] === 'a' ? 'b' : 'a') + t.slice(21)],
    ['truncated', (t: string) => t.slice(0, -1)],
    ['wrong prefix', (t: string) => t.replace('tas_live_', 'tas_prod_')],
    ['mode swapped', (t: string) => t.replace('tas_live_', 'tas_test_')],
    ['empty', () => ''],
  ])('given a key with %s, when parsed, then the checksum or shape rejects it', (_label, mutate) => {
    expect(parseKey(mutate(generateKey('live').token))).toBeNull();
  });

  it('given a stored hash, then only the same token under the same pepper verifies', () => {
    const { token } = generateKey('live');
    const salt = newSalt();
    const stored = hashKey('pepper-one', salt, token);
    expect(verifyKeyHash('pepper-one', salt, token, stored)).toBe(true);
    expect(verifyKeyHash('pepper-two', salt, token, stored)).toBe(false);
    expect(verifyKeyHash('pepper-one', newSalt(), token, stored)).toBe(false);
    expect(verifyKeyHash('pepper-one', salt, generateKey('live').token, stored)).toBe(false);
  });
});
