import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, openSecret, sealSecret, secretKeyBytes } from '../../src/webhooks/secret.js';

const pepper = 'test-pepper-0123456789abcdef0123456789';
const ctx = { tenantId: '11111111-1111-4111-8111-111111111111', endpointId: '22222222-2222-4222-8222-222222222222' };

describe('webhook secrets', () => {
  it('given a new secret, then it is whsec_ and the base64 of 32 bytes, different every time', () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secretKeyBytes(a)).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(a);
  });

  it('given a sealed secret, then it opens to the secret and does not contain it in clear', () => {
    const secret = generateWebhookSecret();
    const sealed = sealSecret(pepper, secret, ctx);
    expect(openSecret(pepper, sealed, ctx)).toBe(secret);
    expect(sealed.includes(Buffer.from(secret))).toBe(false);
    expect(sealed.includes(secretKeyBytes(secret))).toBe(false);
    expect(sealSecret(pepper, secret, ctx).equals(sealed)).toBe(false); // a fresh IV each time
  });

  it.each([
    ['another pepper', () => ['another-pepper-0123456789abcdef012345', ctx] as const],
    ['another endpoint', () => [pepper, { ...ctx, endpointId: '33333333-3333-4333-8333-333333333333' }] as const],
    ['another tenant', () => [pepper, { ...ctx, tenantId: '44444444-4444-4444-8444-444444444444' }] as const],
  ])('given %s, when opening, then it throws', (_name, args) => {
    const sealed = sealSecret(pepper, generateWebhookSecret(), ctx);
    const [p, c] = args();
    expect(() => openSecret(p, sealed, c)).toThrow();
  });

  it('given a tampered blob, when opening, then it throws', () => {
    const sealed = sealSecret(pepper, generateWebhookSecret(), ctx);
    sealed.writeUInt8(sealed.readUInt8(sealed.length - 1) ^ 1, sealed.length - 1);
    expect(() => openSecret(pepper, sealed, ctx)).toThrow();
  });
});
