import { createHash } from 'node:crypto';
import type { ChainRow } from './store.js';

export type { ChainRow };

/**
 * The audit chain's arithmetic, pure. A link is sha256 over the previous link
 * and the row's canonical form: a fixed field order, so any later change to
 * any field of any sealed row breaks every link after it. The anonymous
 * chain's rows (calls refused before any tenant is known) are linked a batch
 * at a time (000100): one link over the canonical forms of all the batch's
 * rows, in order.
 */
export const GENESIS = Buffer.alloc(32);

/** The chain of the rows with no tenant, linked a batch at a time. */
export const ANONYMOUS_CHAIN = 'anonymous';

export function chainKeyOf(row: Pick<ChainRow, 'tenant_id' | 'mode'>): string {
  return row.tenant_id ? `${row.tenant_id}:${row.mode}` : ANONYMOUS_CHAIN;
}

function canonicalFields(r: ChainRow): unknown[] {
  return [
    r.audit_id,
    new Date(r.occurred_at).toISOString(),
    r.tenant_id,
    r.mode,
    r.principal,
    r.action,
    r.target_kind,
    r.target_id,
    r.status,
    r.rule,
    r.purpose,
    r.cost_amount,
    r.cost_currency,
  ];
}

export function canonicalRow(r: ChainRow): string {
  return JSON.stringify(canonicalFields(r));
}

export function link(prev: Buffer, row: ChainRow): Buffer {
  return createHash('sha256').update(prev).update(canonicalRow(row)).digest();
}

/**
 * One link over a batch of rows: sha256(prev || [row, row, ...]), each row in
 * its canonical field order. A one-row link's form opens with the row's id,
 * a batch's with a nested array, so the two forms never hash the same text.
 */
export function batchLink(prev: Buffer, rows: readonly ChainRow[]): Buffer {
  return createHash('sha256')
    .update(prev)
    .update(JSON.stringify(rows.map(canonicalFields)))
    .digest();
}
