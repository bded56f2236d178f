import { createHmac } from 'node:crypto';
import { secretKeyBytes } from './secret.js';

/**
 * Standard Webhooks signing, pure: the signed content is
 * `${webhook-id}.${webhook-timestamp}.${body}` and the signature is
 * `v1,<base64 HMAC-SHA256>` keyed with the secret's decoded bytes. The body
 * must be the exact bytes sent, so callers sign the string they then POST.
 * Several secrets (a rotation's overlap) give several signatures, separated
 * by spaces, as the standard provides: a receiver accepts any one it can check.
 */
export interface SignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function signatureHeaders(
  secrets: string | readonly string[],
  msgId: string,
  timestampSeconds: number,
  body: string,
): SignatureHeaders {
  const timestamp = String(Math.floor(timestampSeconds));
  const signatures = (typeof secrets === 'string' ? [secrets] : secrets).map(
    (secret) => `v1,${createHmac('sha256', secretKeyBytes(secret)).update(`${msgId}.${timestamp}.${body}`, 'utf8').digest('base64')}`,
  );
  return { 'webhook-id': msgId, 'webhook-timestamp': timestamp, 'webhook-signature': signatures.join(' ') };
}
