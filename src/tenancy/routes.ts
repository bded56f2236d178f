import type { RevocationBus } from '../auth/index.js';
import { keyPrefixOf } from '../auth/index.js';
import { expireKeyAt, findActiveKey, listKeys, revokeKey } from '../auth/index.js';
import { withTenant, type Db } from '../platform/db/pool.js';
import type { Handler } from '../edge/handler.js';
import { ServiceProblem, ValidationFailure } from '../platform/problems.js';
import type { KeyCreate, KeyRotate } from '../schemas/admin.js';
import { mintKey } from './keys.js';
import { requirePrincipal } from '../auth/index.js';
import { targetOf } from '../edge/target.js';

/**
 * POST /v1/admin/keys and DELETE /v1/admin/keys/{key_id}. A key mints and
 * revokes keys of its own mode only (rule K01): a test admin key can never
 * produce a live key. The secret is in the 201 answer and nowhere else.
 */
export function createMintKey(deps: { db: Db; pepper: string; now?: () => number }): Handler {
  const now = deps.now ?? Date.now;
  return async (ctx) => {
    const principal = requirePrincipal(ctx);
    const body = ctx.body as KeyCreate;
    if (body.mode !== principal.mode) throw ValidationFailure.rule('K01', ['body', 'mode'], 'A key can mint keys of its own mode only');
    if (body.expires_at && Date.parse(body.expires_at) <= now()) {
      throw ValidationFailure.rule('K01', ['body', 'expires_at'], 'The expiry must be in the future');
    }
    const minted = await withTenant(deps.db, principal, async (tx) => {
      const key = await mintKey(tx, deps.pepper, {
        tenantId: principal.tenantId,
        mode: principal.mode,
        name: body.name,
        scopes: body.scopes,
        expiresAt: body.expires_at ?? null,
      });
      ctx.audit.target_kind = 'key';
      ctx.audit.target_id = key.keyId;
      await ctx.auditInTx(tx, 'created');
      return key;
    });
    return {
      status: 201,
      headers: { 'Cache-Control': 'no-store' },
      body: {
        key_id: minted.keyId,
        name: body.name,
        scopes: [...new Set(body.scopes)].sort(),
        mode: principal.mode,
        prefix: minted.token.slice(0, 13),
        created_at: minted.createdAt,
        expires_at: body.expires_at ?? null,
        secret: minted.token,
      },
    };
  };
}

export function createRevokeKey(deps: { db: Db; revocations: RevocationBus }): Handler {
  return async (ctx) => {
    const { principal, id: keyId } = targetOf(ctx, 'key', 'key_id');
    const revoked = await withTenant(deps.db, principal, async (tx) => {
      const done = await revokeKey(tx, keyId);
      if (done) await ctx.auditInTx(tx, 'removed');
      return done;
    });
    // Unknown, already revoked, or another tenant's or mode's key: the same 404.
    if (!revoked) throw new ServiceProblem('not-found', 'No such key.');
    await deps.revocations.publish(keyId).catch(() => undefined);
    return { status: 204 };
  };
}

/** GET /v1/admin/keys: the tenant's keys of the caller's mode (RLS), never a secret. */
export function createListKeys(deps: { db: Db }): Handler {
  return async (ctx) => {
    const principal = requirePrincipal(ctx);
    ctx.audit.target_kind = 'key';
    const rows = await withTenant(deps.db, principal, (tx) => listKeys(tx));
    return {
      status: 200,
      headers: { 'Cache-Control': 'no-store' },
      body: rows.map((r) => ({
        key_id: r.id,
        name: r.name,
        scopes: [...r.scopes].sort(),
        mode: r.mode,
        prefix: keyPrefixOf(r.mode, r.id),
        created_at: new Date(r.created_at).toISOString(),
        expires_at: r.expires_at === null ? null : new Date(r.expires_at).toISOString(),
        revoked_at: r.revoked_at === null ? null : new Date(r.revoked_at).toISOString(),
        last_used_at: r.last_used_at === null ? null : new Date(r.last_used_at).toISOString(),
      })),
    };
  };
}

/**
 * POST /v1/admin/keys/{key_id}/rotate: the successor (same name, scopes and
 * expiry) is minted and the old key ended in one transaction with the audit
 * row: revoked at once with a grace of 0, else expiring when the grace ends
 * (an earlier expiry it had is kept). The new secret is in the 201 answer
 * and nowhere else.
 */
export function createRotateKey(deps: { db: Db; pepper: string; revocations: RevocationBus; now?: () => number }): Handler {
  const now = deps.now ?? Date.now;
  return async (ctx) => {
    const principal = requirePrincipal(ctx);
    const oldKeyId = ctx.params.key_id!;
    const { grace_seconds: grace } = ctx.body as KeyRotate;
    ctx.audit.target_kind = 'key';
    ctx.audit.target_id = oldKeyId;
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
      await ctx.auditInTx(tx, 'created');
      return { key, old };
    });
    // Unknown, revoked, expired, or another tenant's or mode's key: the same 404.
    if (!rotated) throw new ServiceProblem('not-found', 'No such key.');
    if (grace === 0) await deps.revocations.publish(oldKeyId).catch(() => undefined);
    return {
      status: 201,
      headers: { 'Cache-Control': 'no-store' },
      body: {
        key_id: rotated.key.keyId,
        name: rotated.old.name,
        scopes: [...rotated.old.scopes].sort(),
        mode: principal.mode,
        prefix: rotated.key.token.slice(0, 13),
        created_at: rotated.key.createdAt,
        expires_at: rotated.old.expires_at === null ? null : new Date(rotated.old.expires_at).toISOString(),
        secret: rotated.key.token,
      },
    };
  };
}
