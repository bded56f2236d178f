import { chainRows, TENANT_TRAIL, type LinkedRow } from './chainStore.js';
import { chainKeyOf, GENESIS } from './chain.js';
import { sealsOf, type SealRow } from './sealStore.js';
import { withTenant, type Db } from '../platform/db/pool.js';
import { ValidationFailure } from '../platform/problems.js';
import type { Principal } from '../auth/index.js';

/**
 * A tenant's audit trail for a period, as NDJSON (issue 50), for the tenant
 * to verify offline with `tas audit verify --file` (trailVerify.ts) and no
 * other tenant's data. The period is a range of UTC days of sealing: the
 * export holds the chain's seals of those days (the closing seal of 000120,
 * period -infinity, counts as of the day it was made), then every link they
 * cover, each with its row, in chain order. Lines:
 *
 *   {"type":"header","format":"tas-audit-trail/1","tenant_id","mode","from","to",
 *    "first_position","last_position","anchor_hash","exported_at"}
 *   {"type":"seal","period","first_position","last_position","links","first_prev","last_hash","sealed_at",
 *    "kid","signed_at","signature"}   (each seal; the last three null while the seal is not signed yet)
 *   {"type":"row","position","prev_hash","hash","row":{audit_id, occurred_at, tenant_id, mode, principal,
 *    action, target_kind, target_id, status, rule, purpose, cost_amount, cost_currency}}   (each link)
 *
 * anchor_hash is the link before the first (the first seal's first_prev): the
 * chain of the export starts from it. Hashes are hex. A row is sealed within
 * seconds of its call (the sealer's horizon), so a call just before midnight
 * may fall in the next day's seal. A seal's signature (sealSignature.ts,
 * base64url) is the service's export signing key's, checked with the keys
 * published at /.well-known/tas-export-keys.json.
 *
 * The export streams: the header and the seals (one a day at most) are read
 * first, in one transaction, and fix the positions the export covers; the
 * rows follow a page of positions at a time, each page read in a short
 * transaction of its own only when the one before has been handed to the
 * client (routes.ts waits for the socket to drain), so a slow reader
 * holds one page, never the period, and no transaction stays open across
 * the client's pace. The links are append-only: a later page reads the chain
 * as the first did.
 */
export const TRAIL_FORMAT = 'tas-audit-trail/1';
// A year of days: the seals, one per day at most, are read and held at once; the rows stream whatever their number.
export const MAX_EXPORT_DAYS = 366;
// Rows per page: about 250 kB of NDJSON, a few index range reads per month partition.
export const EXPORT_PAGE_ROWS = 500;

export interface TrailExportQuery {
  from: string;
  to: string;
}

const hex = (b: Buffer) => b.toString('hex');

/** An export opened: its header and seals, then its rows a page at a time, read as they are asked for. */
export interface TrailExport {
  head: string;
  pages: AsyncIterable<string>;
}

export async function exportTrail(
  deps: { db: Db; now?: () => Date },
  principal: Principal,
  query: TrailExportQuery,
  pageRows = EXPORT_PAGE_ROWS,
): Promise<TrailExport> {
  const days = (Date.parse(query.to) - Date.parse(query.from)) / 86_400_000;
  if (!(days >= 0) || days >= MAX_EXPORT_DAYS) {
    throw new ValidationFailure([
      { loc: ['query', 'to'], msg: `The period is from one day to another at most ${MAX_EXPORT_DAYS - 1} days later`, type: 'value_error' },
    ]);
  }
  const { tenantId, mode } = principal;
  const seals = await withTenant(deps.db, principal, (tx) => sealsOf(tx, tenantId, mode, query.from, query.to));
  const first = seals[0];
  const last = seals.at(-1);
  const header = {
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
  };
  const head = [header, ...seals.map(sealLine)].map((line) => `${JSON.stringify(line)}\n`).join('');
  const range = first && last ? { from: first.first_position, to: last.last_position } : null;
  return { head, pages: rowPages(deps.db, principal, range, pageRows) };
}

/** The rows of positions `range`, `pageRows` positions a page, each page its own transaction under the tenant's scope. */
async function* rowPages(db: Db, principal: Principal, range: { from: number; to: number } | null, pageRows: number) {
  if (range === null) return;
  const key = chainKeyOf({ tenant_id: principal.tenantId, mode: principal.mode });
  for (let from = range.from; from <= range.to; from += pageRows) {
    const to = Math.min(from + pageRows - 1, range.to);
    const links = await withTenant(db, principal, (tx) => chainRows(tx, key, TENANT_TRAIL, from, to));
    if (links.length > 0) yield links.map((l) => `${JSON.stringify(rowLine(l))}\n`).join('');
  }
}

function sealLine(s: SealRow) {
  return {
    type: 'seal',
    period: s.period,
    first_position: s.first_position,
    last_position: s.last_position,
    links: s.links,
    first_prev: hex(s.first_prev),
    last_hash: hex(s.last_hash),
    sealed_at: new Date(s.sealed_at).toISOString(),
    kid: s.kid,
    signed_at: s.signed_at,
    signature: s.signature?.toString('base64url') ?? null,
  };
}

function rowLine(l: LinkedRow) {
  return {
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
  };
}
