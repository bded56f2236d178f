import { sql, type IdentifierSqlToken } from 'slonik';
import { z } from 'zod';
import { AuditColumns } from './store.js';
import type { Db, Tx } from '../platform/db/pool.js';

/**
 * The sealer's and the verifier's queries over one trail (000120): the
 * tenants' (audit_log and its chains, one per tenant and mode, distributed
 * by tenant) or the anonymous one (audit_refusals, calls refused before any
 * tenant is known, one chain linked a batch at a time, on the coordinator).
 * Both have the same shape; only the names differ, and the anonymous log has
 * no tenant or mode columns (read as NULL). They run as tas_system.
 */
export interface Trail {
  kind: 'tenants' | 'refusals';
  log: IdentifierSqlToken;
  chain: IdentifierSqlToken;
  unsealed: IdentifierSqlToken;
  retained: IdentifierSqlToken;
  seals: IdentifierSqlToken;
}

export const TENANT_TRAIL: Trail = {
  kind: 'tenants',
  log: sql.identifier(['audit_log']),
  chain: sql.identifier(['audit_chain']),
  unsealed: sql.identifier(['audit_unsealed']),
  retained: sql.identifier(['audit_chain_retained']),
  seals: sql.identifier(['audit_seals']),
};

export const REFUSAL_TRAIL: Trail = {
  kind: 'refusals',
  log: sql.identifier(['audit_refusals']),
  chain: sql.identifier(['audit_refusal_links']),
  unsealed: sql.identifier(['audit_refusals_unsealed']),
  retained: sql.identifier(['audit_refusals_retained']),
  seals: sql.identifier(['audit_refusal_seals']),
};

const Row = AuditColumns.extend({
  tenant_id: z.string().nullable(),
  mode: z.enum(['live', 'test']).nullable(),
});

const COMMON = sql.fragment`l.audit_id, l.occurred_at, l.principal, l.action, l.target_kind,
  l.target_id, l.status, l.rule, l.purpose, l.cost_amount, l.cost_currency`;

function columns(trail: Trail) {
  return trail.kind === 'tenants'
    ? sql.fragment`${COMMON}, l.tenant_id, l.mode`
    : sql.fragment`${COMMON}, NULL::uuid AS tenant_id, NULL::text AS mode`;
}

/** A row waiting to be sealed, with its seq (a batch link names its rows by seq: 000100). */
const Unsealed = Row.extend({ seq: z.number() });
export type UnsealedRow = z.infer<typeof Unsealed>;

/**
 * Rows not yet sealed that are older than the horizon, in insertion order,
 * read from the trail's work list (000021): an index walk from its head, so
 * the cost is the rows taken, not the size of the log. The rows taken are
 * picked first (one array), then each is read by its whole key, partition key
 * included (000090), so each look-up reads the one month's partition that
 * holds it.
 */
export async function unsealedRows(tx: Tx, horizonMs: number, limit: number, trail: Trail = TENANT_TRAIL): Promise<readonly UnsealedRow[]> {
  return tx.any(unsealedRowsQuery(horizonMs, limit, trail));
}

export function unsealedRowsQuery(horizonMs: number, limit: number, trail: Trail = TENANT_TRAIL) {
  const tenantKey = trail.kind === 'tenants' ? sql.fragment` AND l.tenant_id = u.tenant_id` : sql.fragment``;
  return sql.type(Unsealed)`
    SELECT u.seq, ${columns(trail)} FROM ${trail.unsealed} u
    JOIN ${trail.log} l ON l.audit_id = u.audit_id AND l.occurred_at = u.occurred_at${tenantKey}
    WHERE u.seq = ANY (ARRAY(
      SELECT w.seq FROM ${trail.unsealed} w WHERE w.occurred_at < now() - make_interval(secs => ${horizonMs / 1000})
      ORDER BY w.seq LIMIT ${limit}))
    ORDER BY u.seq`;
}

/** Takes sealed rows off the work list, in the transaction that chained them. */
export async function unlistSealed(tx: Tx, auditIds: readonly string[], trail: Trail = TENANT_TRAIL): Promise<void> {
  if (auditIds.length === 0) return;
  await tx.query(sql.unsafe`DELETE FROM ${trail.unsealed} WHERE audit_id = ANY(${sql.array([...auditIds], 'uuid')})`);
}

const Head = z.object({
  chain_key: z.string(),
  position: z.number(),
  hash: z.instanceof(Buffer),
  today_first_position: z.number().nullable(),
  today_links: z.number().nullable(),
  today_first_prev: z.instanceof(Buffer).nullable(),
});

/** A chain's last link, and its seal of the day as it stands (what a pass grows), if it has one. */
export interface ChainHead {
  position: number;
  hash: Buffer;
  today: { firstPosition: number; links: number; firstPrev: Buffer } | null;
}

/**
 * The last link of each of these chains, with the chain's seal of `today`,
 * in one statement: one backward step of the (chain_key, position) index per
 * chain and partition, whatever the chains' length, and one key look-up of
 * the seal. A chain whose every link was retained away (000090) continues
 * from the last link retention summed up.
 */
export async function chainHeads(tx: Tx, chainKeys: readonly string[], trail: Trail, today: string): Promise<Map<string, ChainHead>> {
  if (chainKeys.length === 0) return new Map();
  const sealOf =
    trail.kind === 'tenants'
      ? sql.fragment`s.tenant_id = split_part(k.chain_key, ':', 1)::uuid AND s.mode = split_part(k.chain_key, ':', 2)`
      : sql.fragment`s.chain_key = k.chain_key`;
  const rows = await tx.any(sql.type(Head)`
    SELECT k.chain_key, h.position, h.hash, s.first_position AS today_first_position, s.links AS today_links,
           s.first_prev AS today_first_prev
    FROM unnest(${sql.array([...chainKeys], 'text')}) AS k(chain_key)
    CROSS JOIN LATERAL (
      SELECT * FROM (
        (SELECT c.position, c.hash FROM ${trail.chain} c WHERE c.chain_key = k.chain_key ORDER BY c.position DESC LIMIT 1)
        UNION ALL
        (SELECT r.last_position, r.last_hash FROM ${trail.retained} r WHERE r.chain_key = k.chain_key
         ORDER BY r.first_position DESC LIMIT 1)
      ) c ORDER BY c.position DESC LIMIT 1
    ) h
    LEFT JOIN ${trail.seals} s ON ${sealOf} AND s.period = ${today}::date`);
  return new Map(
    rows.map((r) => [
      r.chain_key,
      {
        position: r.position,
        hash: r.hash,
        today:
          r.today_first_position === null
            ? null
            : { firstPosition: r.today_first_position, links: r.today_links!, firstPrev: r.today_first_prev! },
      },
    ]),
  );
}

export interface ChainLink {
  auditId: string;
  chainKey: string;
  tenantId: string | null;
  mode: string | null;
  position: number;
  prev: Buffer;
  hash: Buffer;
  /** A batch link's rows, by seq in the order hashed (000100); null for the link of the one row auditId names. */
  members: readonly number[] | null;
}

/**
 * A sealing pass's links written and its rows taken off the work list, in
 * the transaction that chains them. Each link takes its (first) row's
 * occurred_at from the work list, exactly as stored, so the link lands in
 * the same month's partition as its rows. The hashes travel as hex, a batch
 * link's members as an array literal.
 *
 * The anonymous trail (coordinator-local) does both in one statement: the
 * pass's rows deleted from the work list by seq, and the links inserted from
 * what was deleted; a flood's pass is a round trip shorter. The tenants'
 * trail keeps two statements, each a distributed one over the pass's tenants
 * on Citus, where a data-modifying CTE across shards is untried.
 */
export async function writeLinks(tx: Tx, links: readonly ChainLink[], rows: readonly UnsealedRow[], trail: Trail): Promise<void> {
  if (rows.length === 0) return;
  const column = <T>(values: T[], type: string) => sql.array(values as never[], type);
  const common = sql.fragment`${column(
    links.map((l) => l.auditId),
    'uuid',
  )}, ${column(
    links.map((l) => l.chainKey),
    'text',
  )}, ${column(
    links.map((l) => l.position),
    'int8',
  )}, ${column(
    links.map((l) => l.prev.toString('hex')),
    'text',
  )}, ${column(
    links.map((l) => l.hash.toString('hex')),
    'text',
  )}`;
  if (trail.kind === 'tenants') {
    await tx.query(sql.unsafe`
      INSERT INTO audit_chain (audit_id, occurred_at, chain_key, tenant_id, mode, position, prev_hash, hash)
      SELECT a, u.occurred_at, k, t, m, p, decode(ph, 'hex'), decode(h, 'hex')
      FROM unnest(${common}, ${column(
        links.map((l) => l.tenantId),
        'uuid',
      )}, ${column(
        links.map((l) => l.mode),
        'text',
      )}) AS x(a, k, p, ph, h, t, m)
      JOIN audit_unsealed u ON u.audit_id = x.a AND u.tenant_id = x.t`);
    await unlistSealed(
      tx,
      rows.map((r) => r.audit_id),
      trail,
    );
    return;
  }
  const members = column(
    links.map((l) => (l.members === null ? null : `{${l.members.join(',')}}`)),
    'text',
  );
  const { rowCount } = await tx.query(sql.unsafe`
    WITH unlisted AS (
      DELETE FROM audit_refusals_unsealed WHERE seq = ANY(${column(
        rows.map((r) => r.seq),
        'int8',
      )}) RETURNING audit_id, occurred_at)
    INSERT INTO audit_refusal_links (audit_id, occurred_at, chain_key, position, prev_hash, hash, members)
    SELECT a, u.occurred_at, k, p, decode(ph, 'hex'), decode(h, 'hex'), ms::int8[]
    FROM unnest(${common}, ${members}) AS x(a, k, p, ph, h, ms)
    JOIN unlisted u ON u.audit_id = x.a`);
  // A link whose row was not on the work list would leave its rows unlisted and unchained: the pass rolls back.
  if (rowCount !== links.length) throw new Error(`audit sealer: ${links.length} links to write, ${rowCount} written`);
}

const Linked = Row.extend({ position: z.number(), prev_hash: z.instanceof(Buffer), hash: z.instanceof(Buffer) });
export type LinkedRow = z.infer<typeof Linked>;

/**
 * The chain's one-row links, each with its row (a link whose row is gone is
 * left out: a gap in the positions), from position `from` on.
 */
export async function chainRows(db: Db | Tx, chainKey: string, trail: Trail = TENANT_TRAIL, from = 1, to = Number.MAX_SAFE_INTEGER) {
  // A tenant's chain names its tenant as a value, so on Citus the read goes to that tenant's shard alone
  // (row-level security's tas_current_tenant() is no value the router can place).
  const tenantKey =
    trail.kind === 'tenants'
      ? sql.fragment` AND l.tenant_id = c.tenant_id AND c.tenant_id = ${chainKey.split(':')[0]!}::uuid`
      : sql.fragment``;
  return db.any(sql.type(Linked)`
    SELECT ${columns(trail)}, c.position, c.prev_hash, c.hash
    FROM ${trail.chain} c JOIN ${trail.log} l ON l.audit_id = c.audit_id AND l.occurred_at = c.occurred_at${tenantKey}
    WHERE c.chain_key = ${chainKey} AND c.members IS NULL AND c.position BETWEEN ${from} AND ${to} ORDER BY c.position`);
}

const Batch = z.object({
  position: z.number(),
  prev_hash: z.instanceof(Buffer),
  hash: z.instanceof(Buffer),
  // bigint[] arrives as strings (the int8 parser takes single values only).
  members: z.array(z.coerce.number()),
});
export type BatchLink = z.infer<typeof Batch>;

/** The anonymous chain's batch links (000100), in order, each naming its rows by seq. */
export async function batchLinks(db: Db | Tx): Promise<readonly BatchLink[]> {
  return db.any(sql.type(Batch)`
    SELECT c.position, c.prev_hash, c.hash, c.members FROM audit_refusal_links c
    WHERE c.members IS NOT NULL ORDER BY c.position`);
}

const Member = Row.extend({ position: z.number(), ord: z.number() });
export type BatchMember = z.infer<typeof Member>;

/**
 * The rows the anonymous chain's batch links name, by link and place in it.
 * Each is looked up by seq within its link's month (a batch never spans two),
 * so a look-up reads one partition; a row gone is simply missing.
 */
export async function batchMembers(db: Db | Tx): Promise<readonly BatchMember[]> {
  return db.any(sql.type(Member)`
    SELECT c.position, m.ord, ${columns(REFUSAL_TRAIL)}
    FROM audit_refusal_links c
    CROSS JOIN LATERAL unnest(c.members) WITH ORDINALITY AS m(seq, ord)
    JOIN audit_refusals l ON l.seq = m.seq
      AND l.occurred_at >= date_trunc('month', c.occurred_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
      AND l.occurred_at < (date_trunc('month', c.occurred_at AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC'
    WHERE c.members IS NOT NULL
    ORDER BY c.position, m.ord`);
}

const Retained = z.object({
  first_position: z.number(),
  last_position: z.number(),
  first_prev: z.instanceof(Buffer),
  last_hash: z.instanceof(Buffer),
});
export type RetainedRun = z.infer<typeof Retained>;

/** The runs of a chain that retention dropped (000090), in order. */
export async function retainedRuns(db: Db | Tx, chainKey: string, trail: Trail = TENANT_TRAIL): Promise<readonly RetainedRun[]> {
  return db.any(sql.type(Retained)`
    SELECT first_position, last_position, first_prev, last_hash FROM ${trail.retained}
    WHERE chain_key = ${chainKey} ORDER BY first_position`);
}

/** Every chain of the trail, sealed or retained. */
export async function chainKeys(db: Db | Tx, trail: Trail = TENANT_TRAIL): Promise<readonly string[]> {
  return db.anyFirst(sql.type(z.object({ chain_key: z.string() }))`
    SELECT chain_key FROM ${trail.chain} UNION SELECT chain_key FROM ${trail.retained} ORDER BY chain_key`);
}
