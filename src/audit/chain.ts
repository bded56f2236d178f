import { createHash } from 'node:crypto';
import type { ChainRow } from './store.js';

export type { ChainRow };

/**
 * The audit chain's arithmetic, pure. A link is sha256 over the previous link
 * and the row's canonical form: a fixed field order, so any later change to
 * any field of any sealed row breaks every link after it.
 */
export const GENESIS = Buffer.alloc(32);

export function chainKeyOf(row: Pick<ChainRow, 'tenant_id' | 'mode'>): string {
  return row.tenant_id ? `${row.tenant_id}:${row.mode}` : 'anonymous';
}

export function canonicalRow(r: ChainRow): string {
  return JSON.stringify([
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
  ]);
}

export function link(prev: Buffer, row: ChainRow): Buffer {
  return createHash('sha256').update(prev).update(canonicalRow(row)).digest();
}
