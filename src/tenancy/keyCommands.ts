import type { z } from 'zod';
import type { AuditSink, Principal, RevocationBus } from '../auth/index.js';
import { expireKeyAt, findActiveKey, keyPrefixOf, listKeys, revokeKey } from '../auth/index.js';
import { withTenant, type Db } from '../platform/db/pool.js';
import { ServiceProblem, ValidationFailure } from '../platform/problems.js';
import type { KeyCreate, KeyOut, KeyRotate, KeySummary } from './schemas.js';
import { mintKey } from './keys.js';

/**
 * The key commands of a tenant's admin: mint, revoke, list and rotate keys of
 * the caller's own tenant and mode. A key mints and revokes keys of its own
 * mode only (rule K01): a test admin key can never produce a live key. A new
 * secret is in the minted key's answer and nowhere else. Each change commits
 * with the call's audit row; the caller (src/tenancy/routes.ts) frames the
 * answer.
 */

/** A key as its minting answers it: the only time its secret is shown. */
export type MintedKeyOut = KeyOut & { secret: string };

export interface KeyCommandDeps {
  db: Db;
  now?: () => number;
}

const NO_SUCH_KEY = () => new ServiceProblem('not-found', 'No such key.');

export async function mintTenantKey(
  deps: KeyCommandDeps & { pepper: string },
  call: AuditSink,
  principal: Principal,
  input: KeyCreate,
): Promise<MintedKeyOut> {
  const now = deps.now ?? Date.now;
  if (input.mode !== principal.mode) throw ValidationFailure.rule('K01', ['body', 'mode'], 'A key can mint keys of its own mode only');
  if (input.expires_at && Date.parse(input.expires_at) <= now()) {
    throw ValidationFailure.rule('K01', ['body', 'expires_at'], 'The expiry must be in the future');
  }
  const minted = await withTenant(deps.db, principal, async (tx) => {
    const key = await mintKey(tx, deps.pepper, {
      tenantId: principal.tenantId,
      mode: principal.mode,
      name: input.name,
      scopes: input.scopes,
      expiresAt: input.expires_at ?? null,
    });
    call.audit.target_kind = 'key';
    call.audit.target_id = key.keyId;
    await call.auditInTx(tx, 'created');
    return key;
  });
  return {
    key_id: minted.keyId,
    name: input.name,
    scopes: [...new Set(input.scopes)].sort(),
    mode: principal.mode,
    prefix: minted.token.slice(0, 13),
    created_at: minted.createdAt,
    expires_at: input.expires_at ?? null,
    secret: minted.token,
  };
}

/** Revokes a key at once; unknown, already revoked, or another tenant's or mode's key: the same not-found. */
export async function revokeTenantKey(
  deps: KeyCommandDeps & { revocations: RevocationBus },
  call: AuditSink,
  principal: Principal,
  keyId: string,
): Promise<void> {
  const revoked = await withTenant(deps.db, principal, async (tx) => {
    const done = await revokeKey(tx, keyId);
    if (done) await call.auditInTx(tx, 'removed');
    return done;
  });
  if (!revoked) throw NO_SUCH_KEY();
  await deps.revocations.publish(keyId).catch(() => undefined);
}

/** The tenant's keys of the caller's mode (RLS), never a secret. Stored scopes are names the contract admitted at minting (text[]). */
export async function listTenantKeys(deps: KeyCommandDeps, principal: Principal): Promise<z.infer<typeof KeySummary>[]> {
  const rows = await withTenant(deps.db, principal, (tx) => listKeys(tx));
  return rows.map((r) => ({
    key_id: r.id,
    name: r.name,
    scopes: [...r.scopes].sort() as KeyOut['scopes'],
    mode: r.mode,
    prefix: keyPrefixOf(r.mode, r.id),
    created_at: new Date(r.created_at).toISOString(),
    expires_at: r.expires_at === null ? null : new Date(r.expires_at).toISOString(),
    revoked_at: r.revoked_at === null ? null : new Date(r.revoked_at).toISOString(),
    last_used_at: r.last_used_at === null ? null : new Date(r.last_used_at).toISOString(),
  }));
}

/**
 * The successor (same name, scopes and expiry) is minted and the old key
 * ended in one transaction with the audit row: revoked at once with a grace
 * of 0, else expiring when the grace ends (an earlier expiry it had is
 * kept). Unknown, revoked, expired, or another tenant's or mode's key: the
 * same not-found.
 */
export async function rotateTenantKey(
  deps: KeyCommandDeps & { pepper: string; revocations: RevocationBus },
  call: AuditSink,
  principal: Principal,
  oldKeyId: string,
  input: KeyRotate,
): Promise<MintedKeyOut> {
  const now = deps.now ?? Date.now;
  const grace = input.grace_seconds;
  const rotated = await withTenant(deps.db, principal, async (tx) => {
    const old = await findActiveKey(tx, oldKeyId);
    if (!old) return null;
    const key = await mintKey(tx, deps.pepper, {
      tenantId: principal.tenantId,
      mode: principal.mode,
      name: old.name,
      scopes: old.scopes,
      expiresAt: old.expires_at,
    });
    if (grace === 0) await revokeKey(tx, oldKeyId);
    else await expireKeyAt(tx, oldKeyId, new Date(now() + grace * 1000).toISOString());
    await call.auditInTx(tx, 'created');
    return { key, old };
  });
  if (!rotated) throw NO_SUCH_KEY();
  if (grace === 0) await deps.revocations.publish(oldKeyId).catch(() => undefined);
  return {
    key_id: rotated.key.keyId,
    name: rotated.old.name,
    scopes: [...rotated.old.scopes].sort() as KeyOut['scopes'],
    mode: principal.mode,
    prefix: rotated.key.token.slice(0, 13),
    created_at: rotated.key.createdAt,
    expires_at: rotated.old.expires_at === null ? null : new Date(rotated.old.expires_at).toISOString(),
    secret: rotated.key.token,
  };
}
