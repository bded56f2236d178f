import { sql } from 'slonik';
import type { Tx } from '../platform/db/pool.js';
import * as store from './store.js';

/**
 * What other capabilities ask of inquiries in their own transaction (the
 * caller's `tx`, already scoped to its tenant): inquiries owns the
 * inquiries, assessments and idempotency_keys tables (docs/architecture.md),
 * so a session's inquiry row, its conclusion, the ledger a case or monitor
 * reads and the key a rescan looks up are asked here, never written or read
 * in the caller's own SQL.
 */
export { AssessmentRow } from './store.js';
export type { IdempotencyRow, InquiryRow } from './store.js';

/** Who opens an inquiry beside another capability's own rows: the tenant, mode and caller it is recorded under. */
export interface InquiryScope {
  tenantId: string;
  mode: string;
  label: string;
}

/**
 * A session's own inquiry (src/sessions): born `reasoning`, with the
 * session's facts as its `request`, so every assessment the session issues
 * is a ledger entry of it. Its entity is the ledger's, never the row's.
 */
export async function openSessionInquiry(
  tx: Tx,
  scope: InquiryScope,
  inquiry: { id: string; intent: string; purpose: string; facts: object },
): Promise<void> {
  await store.insertInquiry(tx, {
    id: inquiry.id,
    tenantId: scope.tenantId,
    mode: scope.mode,
    entityId: null,
    status: 'reasoning',
    intent: inquiry.intent,
    purpose: inquiry.purpose,
    request: inquiry.facts,
    principal: scope.label,
  });
}

/** Concludes an inquiry another capability holds open (a session that closed), with the one concluded_at rule. */
export async function concludeInquiry(tx: Tx, inquiryId: string): Promise<void> {
  await tx.query(sql.unsafe`${store.inquiryStatusUpdate(inquiryId, 'concluded')}`);
}

/** The inquiry of this tenant and mode (row-level security), or null. */
export function findInquiry(tx: Tx, inquiryId: string): Promise<store.InquiryRow | null> {
  return store.findInquiry(tx, inquiryId);
}

/** The inquiry's latest ledger entry, or null. */
export function latestAssessmentOf(tx: Tx, inquiryId: string): Promise<store.AssessmentRow | null> {
  return store.latestAssessmentOf(tx, inquiryId);
}

/** The claim of an idempotency key in this tenant and mode, or null. */
export function findIdempotencyKey(tx: Tx, key: string): Promise<store.IdempotencyRow | null> {
  return store.findIdempotencyKey(tx, key);
}
