import type { Principal } from '../auth/index.js';
import { claimIdempotencyKey, findIdempotencyKey, storeIdempotentResponse } from './store.js';
import { withTenant, type Db, type Tx } from '../platform/db/pool.js';
import { judgeClash } from '../platform/idempotency.js';
import { ServiceProblem } from '../platform/problems.js';
import { parseStoredOutcome, type InquiryOutcome } from './view.js';

/**
 * `idempotency_key` on POST /v1/inquiries, scoped by tenant and mode and kept
 * at least 24 hours (rows are never deleted today), under the one rule set of
 * src/platform/idempotency.ts. The key is claimed inside the transaction that
 * opens the inquiry, so a claim never exists without its inquiry. The same key
 * with the same body replays the stored answer; with another body it is
 * refused (rule I17); while the first call may still be answering, a duplicate
 * gets 409; after the window, the inquiry as it stands now.
 */
export class IdempotencyClash extends Error {
  override name = 'IdempotencyClash';
}

/** The key a call came with and the hash of the call as sent (src/platform/idempotency.ts requestHash). */
export interface IdempotencyClaim {
  key: string;
  hash: string;
}

export function claimer(principal: Principal, claim: IdempotencyClaim | null): (tx: Tx, inquiryId: string) => Promise<void> {
  return async (tx, inquiryId) => {
    if (claim === null) return;
    const claimed = await claimIdempotencyKey(tx, {
      tenantId: principal.tenantId,
      mode: principal.mode,
      key: claim.key,
      requestHash: claim.hash,
      inquiryId,
    });
    if (!claimed) throw new IdempotencyClash();
  };
}

export type Prior = { kind: 'replay'; inquiry: InquiryOutcome; inquiryId: string } | { kind: 'current'; inquiryId: string };

/** What a clashing call gets: a replay, the inquiry as it stands now, or a refusal. */
export async function resolveClash(db: Db, principal: Principal, key: string, hash: string, now = Date.now()): Promise<Prior> {
  const row = await withTenant(db, principal, (tx) => findIdempotencyKey(tx, key));
  if (!row) throw new ServiceProblem('conflict', 'The idempotency key was claimed concurrently; retry.');
  const answered = row.status_code !== null && row.response !== null;
  const verdict = judgeClash({ hash: row.request_hash, answered, ageMs: now - Date.parse(row.created_at) }, hash, [
    'body',
    'idempotency_key',
  ]);
  // The kept answer is the JSON this service wrote; it is parsed back, not trusted as a type.
  if (verdict === 'replay') return { kind: 'replay', inquiry: parseStoredOutcome(row.response), inquiryId: row.inquiry_id };
  return { kind: 'current', inquiryId: row.inquiry_id };
}

export async function rememberAnswer(db: Db, principal: Principal, key: string | undefined, inquiry: InquiryOutcome): Promise<void> {
  if (key === undefined) return;
  await withTenant(db, principal, (tx) => storeIdempotentResponse(tx, key, inquiry));
}
