import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

/**
 * A seal's signature (issue 50), pure: Ed25519 over the seal's statement, a
 * JSON array in a fixed order of what the seal asserts (whose chain, which
 * day, which positions, the link before the first and the last link) and who
 * signed it when. The key is the service's export signing key, the one that
 * signs case bundles (src/cases/export/keys.ts): its public half is
 * published at /.well-known/tas-export-keys.json, so a tenant checks its
 * exported trail's seals with that file and nothing else. The time the seal
 * was last grown (sealed_at) is not asserted: it is bookkeeping, and a seal
 * made before signing existed is signed later, when it is first signed.
 */
export const SEAL_STATEMENT_FORMAT = 'tas-audit-seal/1';

/** What a seal asserts. Hashes as hex; a tenant's chain names tenant and mode, the anonymous chain neither. */
export interface SealFacts {
  tenantId: string | null;
  mode: string | null;
  period: string;
  firstPosition: number;
  lastPosition: number;
  links: number;
  firstPrev: string;
  lastHash: string;
}

export interface SealSignature {
  kid: string;
  /** ISO 8601, milliseconds: when the signature was made (the key must have been signing then). */
  signedAt: string;
  signature: Buffer;
}

/** The signing key of the moment, as the case export holds it (kid and private key). */
export interface SealKey {
  kid: string;
  privateKey: KeyObject;
}
/**
 * Hands the sealer the active signing key; the composition root builds it from the case export's key management.
 * The pass names the kid it read as active (null: none yet), so a signer may keep the key it opened (sealKeys.ts).
 */
export type SealSigner = (activeKid: string | null) => Promise<SealKey>;

export function sealStatement(facts: SealFacts, kid: string, signedAt: string): Buffer {
  return Buffer.from(
    JSON.stringify([
      SEAL_STATEMENT_FORMAT,
      facts.tenantId,
      facts.mode,
      facts.period,
      facts.firstPosition,
      facts.lastPosition,
      facts.links,
      facts.firstPrev,
      facts.lastHash,
      kid,
      signedAt,
    ]),
  );
}

export function signSeal(key: SealKey, facts: SealFacts, at: Date = new Date()): SealSignature {
  const signedAt = at.toISOString();
  return { kid: key.kid, signedAt, signature: sign(null, sealStatement(facts, key.kid, signedAt), key.privateKey) };
}

/** A published key as the JWKS carries it (src/cases/export/bundle.ts's Jwk): the members a seal's check reads. */
export interface PublishedKey {
  kty: string;
  crv?: string;
  x?: string;
  kid?: string;
  nbf?: number;
  exp?: number;
  revoked_at?: string;
}

/**
 * Why a seal's signature proves nothing, or null when it holds: no such
 * published key, a signature that does not match, a key revoked, or a
 * signature dated outside the key's signing window (its nbf to its exp), the
 * same rules as a case bundle's.
 */
export function sealSignatureProblem(keys: readonly PublishedKey[], facts: SealFacts, sig: SealSignature): string | null {
  const jwk = keys.find((k) => k.kid === sig.kid && k.kty === 'OKP' && k.crv === 'Ed25519' && typeof k.x === 'string');
  if (!jwk) return `no published Ed25519 key has the id ${sig.kid}`;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x! }, format: 'jwk' });
  } catch {
    return `the published key ${sig.kid} is not an Ed25519 key`;
  }
  if (sig.signature.length !== 64 || !verify(null, sealStatement(facts, sig.kid, sig.signedAt), key, sig.signature))
    return `the signature does not match the seal under key ${sig.kid}`;
  if (jwk.revoked_at !== undefined) return `key ${sig.kid} was revoked on ${jwk.revoked_at}; it proves nothing`;
  const at = Date.parse(sig.signedAt) / 1000;
  if (Number.isNaN(at)) return 'signed_at is not a date';
  if (jwk.nbf !== undefined && at < jwk.nbf) return `the seal is signed before key ${sig.kid} was made`;
  if (jwk.exp !== undefined && at >= jwk.exp) return `the seal is signed after key ${sig.kid} was retired`;
  return null;
}
