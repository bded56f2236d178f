import { createHmac } from 'node:crypto';
import { secretKeyBytes } from './secret.js';

/**
 * Standard Webhooks signing, pure: the signed content is
 * `${webhook-id}.${webhook-timestamp}.${body}` and the signature is
 * `v1,<base64 HMAC-SHA256>` keyed with the secret's decoded bytes. The body
 * must be the exact bytes sent, so callers sign the string they then POST.
 */
export interface SignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function signatureHeaders(secret: string, msgId: string, timestampSeconds: number, body: string): SignatureHeaders {
  const timestamp = String(Math.floor(timestampSeconds));
  const mac = createHmac('sha256', secretKeyBytes(secret)).update(`${msgId}.${timestamp}.${body}`, 'utf8').digest('base64');
  return { 'webhook-id': msgId, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${mac}` };
}
