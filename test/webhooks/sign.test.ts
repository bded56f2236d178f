import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret } from '../../src/webhooks/secret.js';
import { signatureHeaders } from '../../src/webhooks/sign.js';

const body = JSON.stringify({ event_id: '7d0f7c1e-0000-5000-8000-000000000001', type: 'InquiryConcluded', data: { n: 1 } });
const now = () => Math.floor(Date.now() / 1000);

describe('signatureHeaders', () => {
  it('given our signature, when a Standard Webhooks receiver verifies it, then it passes and yields the body', () => {
    const secret = generateWebhookSecret();
    const headers = signatureHeaders(secret, 'msg_abc', now(), body);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('given the same inputs, then the signature equals the reference library’s', () => {
    const secret = generateWebhookSecret();
    const ts = now();
    const ours = signatureHeaders(secret, 'msg_abc', ts, body);
    expect(ours).toEqual({
      'webhook-id': 'msg_abc',
      'webhook-timestamp': String(ts),
      'webhook-signature': new Webhook(secret).sign('msg_abc', new Date(ts * 1000), body),
    });
    expect(ours['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it.each([
    ['a tampered body', (h: Record<string, string>) => ({ body: body.replace('"n":1', '"n":2'), headers: h })],
    ['a different webhook-id', (h: Record<string, string>) => ({ body, headers: { ...h, 'webhook-id': 'msg_other' } })],
    [
      'a shifted timestamp',
      (h: Record<string, string>) => ({ body, headers: { ...h, 'webhook-timestamp': String(Number(h['webhook-timestamp']) - 1) } }),
    ],
  ])('given %s, when verified, then it is refused', (_name, tamper) => {
    const secret = generateWebhookSecret();
    const { body: sent, headers } = tamper({ ...signatureHeaders(secret, 'msg_abc', now(), body) });
    expect(() => new Webhook(secret).verify(sent, headers)).toThrow();
  });

  it('given another secret, when verified, then it is refused', () => {
    const headers = signatureHeaders(generateWebhookSecret(), 'msg_abc', now(), body);
    expect(() => new Webhook(generateWebhookSecret()).verify(body, { ...headers })).toThrow();
  });
});
