import type { SealKey, SealSigner } from './sealSignature.js';

/**
 * The signing key kept between the sealer's passes (issue 50). Opening the
 * export signing key is a read, an AES-GCM unseal and a PKCS#8 parse: a few
 * milliseconds, a tenth of a pass that seals a thousand refusals, paid every
 * two seconds for a key that changes only when an operator rotates or
 * revokes it. Each pass reads which key is active (its kid) in its first
 * statement and names it here, so a rotation is seen by the next pass: the
 * kept key is used only while it is still the active one, and otherwise the
 * key is opened again and kept in its place. A pepper rotation re-seals the
 * same key under a new pepper: same kid, the kept key stays right.
 */
export function keptSealSigner(open: () => Promise<SealKey>): SealSigner {
  let kept: SealKey | null = null;
  return async (activeKid) => {
    // No active key yet (the first export or seal makes it): open, which makes one.
    if (kept !== null && activeKid !== null && kept.kid === activeKid) return kept;
    kept = await open();
    return kept;
  };
}
