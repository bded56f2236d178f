import { createHash } from 'node:crypto';
import type { Principal } from '../auth/authenticate.js';
import { claimIdempotencyKey, findIdempotencyKey, storeIdempotentResponse, type IdempotencyRow } from '../db/inquiries.js';
import { withTenant, type Db, type Tx } from '../db/pool.js';
import { ServiceProblem, ValidationFailure } from '../platform/problems.js';

/**
 * `idempotency_key` on POST /v1/inquiries, scoped by tenant and mode and kept
 * at least 24 hours (rows are never deleted today). The key is claimed inside
 * the transaction that opens the inquiry, so a claim never exists without its
 * inquiry. The same key with the same body replays the stored answer; with
 * another body it is refused (rule I17); while the first call is still being
 * answered, a duplicate gets 409.
 */
export class IdempotencyClash extends Error {
  override name = 'IdempotencyClash';
}

// A first call still being answered is at most its deadline (30 s at most) plus a margin.
const IN_FLIGHT_WINDOW_MS = 35_000;

export function requestHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/** JSON with object keys sorted, so two equal bodies hash alike whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function claimer(principal: Principal, key: string | undefined, hash: string): (tx: Tx, inquiryId: string) => Promise<void> {
  return async (tx, inquiryId) => {
    if (key === undefined) return;
    const claimed = await claimIdempotencyKey(tx, { tenantId: principal.tenantId, mode: principal.mode, key, requestHash: hash, inquiryId });
    if (!claimed) throw new IdempotencyClash();
  };
}

export type Prior =
  | { kind: 'replay'; status: number; body: unknown; inquiryId: string }
  | { kind: 'current'; inquiryId: string };

/** What a clashing call gets: a replay, the inquiry as it stands now, or a refusal. */
export async function resolveClash(db: Db, principal: Principal, key: string, hash: string, now = Date.now()): Promise<Prior> {
  const row = await withTenant(db, principal, (tx) => findIdempotencyKey(tx, key));
  if (!row) throw new ServiceProblem('conflict', 'The idempotency key was claimed concurrently; retry.');
  return decide(row, hash, now);
}

function decide(row: IdempotencyRow, hash: string, now: number): Prior {
  if (row.request_hash !== hash) {
    throw ValidationFailure.rule('I17', ['body', 'idempotency_key'], 'This idempotency key was used with a different request body, or by a key with other scopes (rule I17).');
  }
  if (row.status_code !== null && row.response !== null) return { kind: 'replay', status: row.status_code, body: row.response, inquiryId: row.inquiry_id };
  if (now - Date.parse(row.created_at) < IN_FLIGHT_WINDOW_MS) {
    throw new ServiceProblem('conflict', 'A request with this idempotency key is still being answered; retry shortly.', {}, { 'Retry-After': '1' });
  }
  return { kind: 'current', inquiryId: row.inquiry_id };
}

export async function rememberResponse(db: Db, principal: Principal, key: string | undefined, status: number, body: unknown): Promise<void> {
  if (key === undefined) return;
  await withTenant(db, principal, (tx) => storeIdempotentResponse(tx, key, status, body));
}
