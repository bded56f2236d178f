import { chainRows, TENANT_TRAIL } from './chainStore.js';
import { chainKeyOf, GENESIS } from './chain.js';
import { sealsOf } from './sealStore.js';
import { withTenant, type Db } from '../platform/db/pool.js';
import { ValidationFailure } from '../platform/problems.js';
import type { Principal } from '../auth/index.js';

/**
 * A tenant's audit trail for a period, as NDJSON (issue 50), for the tenant
 * to verify offline with `tas audit verify --file` (trailVerify.ts) and no
 * other tenant's data. The period is a range of UTC days of sealing: the
 * export holds the chain's seals of those days, then every link they cover,
 * each with its row, in chain order. Lines:
 *
 *   {"type":"header","format":"tas-audit-trail/1","tenant_id","mode","from","to",
 *    "first_position","last_position","anchor_hash","exported_at"}
 *   {"type":"seal","period","first_position","last_position","links","first_prev","last_hash","sealed_at"}   (each seal)
 *   {"type":"row","position","prev_hash","hash","row":{audit_id, occurred_at, tenant_id, mode, principal,
 *    action, target_kind, target_id, status, rule, purpose, cost_amount, cost_currency}}   (each link)
 *
 * anchor_hash is the link before the first (the first seal's first_prev): the
 * chain of the export starts from it. Hashes are hex. A row is sealed within
 * seconds of its call (the sealer's horizon), so a call just before midnight
 * may fall in the next day's seal.
 */
export const TRAIL_FORMAT = 'tas-audit-trail/1';
// A month of days: a period's seals and links are read in one transaction and answered in one body.
export const MAX_EXPORT_DAYS = 31;

export interface TrailExportQuery {
  from: string;
  to: string;
}

const hex = (b: Buffer) => b.toString('hex');

export async function exportTrail(deps: { db: Db; now?: () => Date }, principal: Principal, query: TrailExportQuery): Promise<string> {
  const days = (Date.parse(query.to) - Date.parse(query.from)) / 86_400_000;
  if (!(days >= 0) || days >= MAX_EXPORT_DAYS) {
    throw new ValidationFailure([
      { loc: ['query', 'to'], msg: `The period is from one day to another at most ${MAX_EXPORT_DAYS} days apart`, type: 'value_error' },
    ]);
  }
  return withTenant(deps.db, principal, async (tx) => {
    const { tenantId, mode } = principal;
    const seals = await sealsOf(tx, tenantId, mode, query.from, query.to);
    const first = seals[0];
    const last = seals.at(-1);
    const links =
      first && last
        ? await chainRows(tx, chainKeyOf({ tenant_id: tenantId, mode }), TENANT_TRAIL, first.first_position, last.last_position)
        : [];
    const lines: unknown[] = [
      {
        type: 'header',
        format: TRAIL_FORMAT,
        tenant_id: tenantId,
        mode,
        from: query.from,
        to: query.to,
        first_position: first?.first_position ?? null,
        last_position: last?.last_position ?? null,
        anchor_hash: hex(first?.first_prev ?? GENESIS),
        exported_at: (deps.now?.() ?? new Date()).toISOString(),
      },
      ...seals.map((s) => ({
        type: 'seal',
        period: s.period,
        first_position: s.first_position,
        last_position: s.last_position,
        links: s.links,
        first_prev: hex(s.first_prev),
        last_hash: hex(s.last_hash),
        sealed_at: new Date(s.sealed_at).toISOString(),
      })),
      ...links.map((l) => ({
        type: 'row',
        position: l.position,
        prev_hash: hex(l.prev_hash),
        hash: hex(l.hash),
        row: {
          audit_id: l.audit_id,
          occurred_at: new Date(l.occurred_at).toISOString(),
          tenant_id: l.tenant_id,
          mode: l.mode,
          principal: l.principal,
          action: l.action,
          target_kind: l.target_kind,
          target_id: l.target_id,
          status: l.status,
          rule: l.rule,
          purpose: l.purpose,
          cost_amount: l.cost_amount,
          cost_currency: l.cost_currency,
        },
      })),
    ];
    return lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
  });
}
