import * as crypto from 'node:crypto';

/**
 * SHA-256 of a string, for the ids and tags computed on every call (finding
 * ids, graph ids, prepared-statement names, ETags). `crypto.hash` (Node
 * 20.12 and later) digests in one native call instead of a `createHash`
 * object per digest; `engines` still admits
 * earlier Node 20 releases, which get the same bytes the older way.
 */
export type OneShot = (algorithm: string, data: string, encoding: 'hex' | 'base64url') => string;
type Sha256 = (text: string, encoding?: 'hex' | 'base64url') => string;

/** SHA-256 through the one-shot digest when there is one, else through a hash object: the same bytes either way. */
export function sha256Through(oneShot: OneShot | undefined): Sha256 {
  if (oneShot !== undefined) return (text, encoding = 'hex') => oneShot('sha256', text, encoding);
  return (text, encoding = 'hex') => crypto.createHash('sha256').update(text).digest(encoding);
}

export const sha256: Sha256 = sha256Through((crypto as { hash?: OneShot }).hash);
