import { keyHashCandidates, parseKey } from './apiKey.js';
import { ringOf, type Keyring } from './keyring.js';
import { keySalt, markKeyUsed, rehashKey, verifyKey } from './store.js';
import type { Db, Mode } from '../platform/db/pool.js';

/** Who is calling: one verified key of one tenant in one mode. */
export interface Principal {
  tenantId: string;
  mode: Mode;
  keyId: string;
  scopes: ReadonlySet<string>;
  /** Audit principal: `key:<uuid>`; never the secret. */
  label: string;
}

export type AuthOutcome =
  { ok: true; principal: Principal } | { ok: false; reason: 'missing' | 'malformed' | 'unknown' | 'revoked' | 'expired' };

/**
 * A verified key is remembered in-process for at most CACHE_TTL_MS so the hot
 * path does not pay a database round trip per call, while a revocation (which
 * also evicts through `forget`) takes effect everywhere within a second.
 * Concurrent calls with a key not in memory share one look-up: when the entry
 * expired under load, every call in flight used to look the key up and mark
 * it used on its own (about ten look-ups a second at 32 connections), and a
 * look-up that was under way when `forget` ran is answered but not kept.
 */
const CACHE_TTL_MS = 750;
const CACHE_MAX_ENTRIES = 10_000;
/**
 * How long a key verified here is known good (issue 48): while its address is
 * blocked for others' failures (src/edge/addressGuard.ts) the call is still
 * authenticated, not refused. Ten minutes outlasts any address block; the
 * entry is only a pass to authentication, never a principal, so a key revoked
 * meanwhile is refused by the look-up itself (and `forget` drops it at once).
 */
const KNOWN_GOOD_MS = 10 * 60_000;

export interface Authenticator {
  authenticate(authorization: string | undefined): Promise<AuthOutcome>;
  forget(keyId: string): void;
  /** Whether this Authorization header's key was verified here lately (and not revoked since). */
  knownGood(authorization: string | undefined): boolean;
}

/** `pepper`: the current pepper, or the keyring while it rotates (a key made under the previous one still verifies). */
export function createAuthenticator(deps: { db: Db; pepper: string | Keyring; now?: () => number }): Authenticator {
  const now = deps.now ?? Date.now;
  const ring = ringOf(deps.pepper);
  const cache = new Map<string, { principal: Principal; until: number; expiresAt: number | null }>();
  const verifying = new Map<string, Promise<AuthOutcome>>();
  const vouched = new Map<string, { keyId: string; until: number }>();
  // Bumped by every `forget`, so a look-up that was under way then is not kept.
  let forgets = 0;

  async function verify(token: string): Promise<AuthOutcome> {
    const startedAfter = forgets;
    const parsed = parseKey(token);
    if (!parsed) return { ok: false, reason: 'malformed' };
    // The salt first, then the row only against the key's own keyed hash (000035): the
    // database hands a key's tenant and scopes to no one who does not hold the key.
    const salt = await keySalt(deps.db, parsed.keyId);
    if (salt === null) return { ok: false, reason: 'unknown' };
    const candidates = keyHashCandidates(ring, salt, token);
    const row = await verifyKey(
      deps.db,
      parsed.keyId,
      candidates.map((c) => c.hash),
    );
    if (!row || row.mode !== parsed.mode) return { ok: false, reason: 'unknown' };
    const keep = candidates[0]!;
    // Made under an earlier pepper or derivation: hashed again under the current one on this use,
    // so the previous pepper can be dropped once no key needs it (tas keys rotate-pepper counts them).
    // Not awaited: a lost rehash is done again on the next use.
    if (!row.hash.equals(keep.hash)) rehashKey(deps.db, row.id, row.hash, keep.hash, keep.pepperKid!).catch(() => undefined);
    if (row.revoked_at) return { ok: false, reason: 'revoked' };
    const expiresAt = row.expires_at ? Date.parse(row.expires_at) : null;
    if (expiresAt !== null && expiresAt <= now()) return { ok: false, reason: 'expired' };
    const principal: Principal = {
      tenantId: row.tenant_id,
      mode: row.mode,
      keyId: row.id,
      scopes: new Set(row.scopes),
      label: `key:${row.id}`,
    };
    if (cache.size >= CACHE_MAX_ENTRIES) cache.clear();
    if (forgets === startedAfter) {
      cache.set(token, { principal, until: now() + CACHE_TTL_MS, expiresAt });
      if (vouched.size >= CACHE_MAX_ENTRIES) vouched.clear();
      vouched.set(token, { keyId: row.id, until: now() + KNOWN_GOOD_MS });
    }
    // Approximate by design (000015): not awaited, so the call never waits on it; a lost mark is corrected by the next one.
    markKeyUsed(deps.db, row.id, row.tenant_id).catch(() => undefined);
    return { ok: true, principal };
  }

  return {
    async authenticate(authorization) {
      const token = bearerToken(authorization);
      if (token === null) return { ok: false, reason: 'missing' };
      const hit = cache.get(token);
      const t = now();
      if (hit && hit.until > t && (hit.expiresAt === null || hit.expiresAt > t)) {
        return { ok: true, principal: hit.principal };
      }
      const inFlight = verifying.get(token);
      if (inFlight) return inFlight;
      const outcome: Promise<AuthOutcome> = verify(token).finally(() => {
        if (verifying.get(token) === outcome) verifying.delete(token);
      });
      verifying.set(token, outcome);
      return outcome;
    },
    forget(keyId) {
      forgets += 1;
      for (const [token, entry] of cache) if (entry.principal.keyId === keyId) cache.delete(token);
      for (const [token, entry] of vouched) if (entry.keyId === keyId) vouched.delete(token);
      verifying.clear();
    },
    knownGood(authorization) {
      const token = bearerToken(authorization);
      const entry = token === null ? undefined : vouched.get(token);
      return entry !== undefined && entry.until > now();
    },
  };
}

function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : '';
}
