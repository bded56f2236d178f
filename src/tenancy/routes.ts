import type { RevocationBus } from '../auth/index.js';
import type { Db } from '../platform/db/pool.js';
import type { Handler } from '../edge/handler.js';
import type { KeyCreate, KeyRotate } from './schemas.js';
import { requirePrincipal } from '../auth/index.js';
import { targetOf } from '../edge/target.js';
import { listTenantKeys, mintTenantKey, revokeTenantKey, rotateTenantKey } from './index.js';

/**
 * POST /v1/admin/keys, DELETE /v1/admin/keys/{key_id}, GET /v1/admin/keys and
 * POST /v1/admin/keys/{key_id}/rotate: HTTP around the key commands
 * (keyCommands.ts). A minted key's secret is in the 201 answer and nowhere
 * else, so no answer that carries one is cached.
 */
const NO_STORE = { 'Cache-Control': 'no-store' };

export function createMintKey(deps: { db: Db; pepper: string; now?: () => number }): Handler {
  return async (ctx) => {
    const minted = await mintTenantKey(deps, ctx, requirePrincipal(ctx), ctx.body as KeyCreate);
    return { status: 201, headers: NO_STORE, body: minted };
  };
}

export function createRevokeKey(deps: { db: Db; revocations: RevocationBus }): Handler {
  return async (ctx) => {
    const { principal, id: keyId } = targetOf(ctx, 'key', 'key_id');
    await revokeTenantKey(deps, ctx, principal, keyId);
    return { status: 204 };
  };
}

export function createListKeys(deps: { db: Db }): Handler {
  return async (ctx) => {
    const principal = requirePrincipal(ctx);
    ctx.audit.target_kind = 'key';
    return { status: 200, headers: NO_STORE, body: await listTenantKeys(deps, principal) };
  };
}

export function createRotateKey(deps: { db: Db; pepper: string; revocations: RevocationBus; now?: () => number }): Handler {
  return async (ctx) => {
    const { principal, id: oldKeyId } = targetOf(ctx, 'key', 'key_id');
    const rotated = await rotateTenantKey(deps, ctx, principal, oldKeyId, ctx.body as KeyRotate);
    return { status: 201, headers: NO_STORE, body: rotated };
  };
}
