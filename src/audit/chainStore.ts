import { sql } from 'slonik';
import { z } from 'zod';
import { AuditColumns } from './store.js';
import type { Db, Tx } from '../platform/db/pool.js';

/** The sealer's and the verifier's queries. They run as the owner: the chain spans every tenant. */
const Row = AuditColumns.extend({
  tenant_id: z.string().nullable(),
  mode: z.enum(['live', 'test']).nullable(),
});

const COLUMNS = sql.fragment`l.audit_id, l.occurred_at, l.tenant_id, l.mode, l.principal, l.action, l.target_kind,
  l.target_id, l.status, l.rule, l.purpose, l.cost_amount, l.cost_currency`;

/**
 * Rows not yet sealed that are older than the horizon, in insertion order,
 * read from the sealer's work list (000021): an index walk from its head,
 * so the cost is the rows taken, not the size of the log. The rows taken are
 * picked first (one array), then each is read by its whole key, partition key
 * included (000090): each look-up is pruned to the one month's partition
 * that holds it, and no plan can start from the log's side.
 */
export async function unsealedRows(tx: Tx, horizonMs: number, limit: number): Promise<readonly UnsealedRow[]> {
  return tx.any(unsealedRowsQuery(horizonMs, limit));
}

/** A row waiting to be sealed, with its seq (a batch link names its rows by seq: 000100). */
const Unsealed = Row.extend({ seq: z.number() });
export type UnsealedRow = z.infer<typeof Unsealed>;

export function unsealedRowsQuery(horizonMs: number, limit: number) {
  return sql.type(Unsealed)`
    SELECT u.seq, ${COLUMNS} FROM audit_unsealed u JOIN audit_log l ON l.audit_id = u.audit_id AND l.occurred_at = u.occurred_at
    WHERE u.seq = ANY (ARRAY(
      SELECT w.seq FROM audit_unsealed w WHERE w.occurred_at < now() - make_interval(secs => ${horizonMs / 1000})
      ORDER BY w.seq LIMIT ${limit}))
    ORDER BY u.seq`;
}

/** Takes sealed rows off the work list, in the transaction that chained them. */
export async function unlistSealed(tx: Tx, auditIds: readonly string[]): Promise<void> {
  if (auditIds.length === 0) return;
  await tx.query(sql.unsafe`DELETE FROM audit_unsealed WHERE audit_id = ANY(${sql.array([...auditIds], 'uuid')})`);
}

const Head = z.object({ chain_key: z.string(), position: z.number(), hash: z.instanceof(Buffer) });

/**
 * The last link of each of these chains, in one statement: one backward step
 * of the (chain_key, position) index per chain and partition, whatever the
 * chains' length. A chain whose every link was retained away (000090)
 * continues from the last link retention summed up.
 */
export async function chainHeads(tx: Tx, chainKeys: readonly string[]): Promise<Map<string, { position: number; hash: Buffer }>> {
  if (chainKeys.length === 0) return new Map();
  const rows = await tx.any(sql.type(Head)`
    SELECT k.chain_key, h.position, h.hash
    FROM unnest(${sql.array([...chainKeys], 'text')}) AS k(chain_key)
    CROSS JOIN LATERAL (
      SELECT * FROM (
        (SELECT c.position, c.hash FROM audit_chain c WHERE c.chain_key = k.chain_key ORDER BY c.position DESC LIMIT 1)
        UNION ALL
        (SELECT r.last_position, r.last_hash FROM audit_chain_retained r WHERE r.chain_key = k.chain_key
         ORDER BY r.first_position DESC LIMIT 1)
      ) c ORDER BY c.position DESC LIMIT 1
    ) h`);
  return new Map(rows.map((r) => [r.chain_key, { position: r.position, hash: r.hash }]));
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
 * A sealing pass's links, in one statement (the hashes travel as hex, a
 * batch link's members as an array literal). Each link takes its (first)
 * row's occurred_at from the work list, exactly as stored, so the link lands
 * in the same month's partition as its rows.
 */
export async function insertLinks(tx: Tx, links: readonly ChainLink[]): Promise<void> {
  if (links.length === 0) return;
  const column = <T>(pick: (l: ChainLink) => T) => links.map(pick);
  const ids = sql.array(
    column((l) => l.auditId),
    'uuid',
  );
  const keys = sql.array(
    column((l) => l.chainKey),
    'text',
  );
  const tenants = sql.array(
    column((l) => l.tenantId),
    'uuid',
  );
  const modes = sql.array(
    column((l) => l.mode),
    'text',
  );
  const positions = sql.array(
    column((l) => l.position),
    'int8',
  );
  const prevs = sql.array(
    column((l) => l.prev.toString('hex')),
    'text',
  );
  const hashes = sql.array(
    column((l) => l.hash.toString('hex')),
    'text',
  );
  const members = sql.array(
    column((l) => (l.members === null ? null : `{${l.members.join(',')}}`)),
    'text',
  );
  await tx.query(sql.unsafe`
    INSERT INTO audit_chain (audit_id, occurred_at, chain_key, tenant_id, mode, position, prev_hash, hash, members)
    SELECT a, u.occurred_at, k, t, m, p, decode(ph, 'hex'), decode(h, 'hex'), ms::int8[]
    FROM unnest(${ids}, ${keys}, ${tenants}, ${modes}, ${positions}, ${prevs}, ${hashes}, ${members}) AS x(a, k, t, m, p, ph, h, ms)
    JOIN audit_unsealed u ON u.audit_id = x.a`);
}

const Linked = Row.extend({ position: z.number(), prev_hash: z.instanceof(Buffer), hash: z.instanceof(Buffer) });
export type LinkedRow = z.infer<typeof Linked>;

/** The chain's one-row links, each with its row (a link whose row is gone is left out: a gap in the positions). */
export async function chainRows(db: Db | Tx, chainKey: string): Promise<readonly LinkedRow[]> {
  return db.any(sql.type(Linked)`
    SELECT ${COLUMNS}, c.position, c.prev_hash, c.hash
    FROM audit_chain c JOIN audit_log l ON l.audit_id = c.audit_id AND l.occurred_at = c.occurred_at
    WHERE c.chain_key = ${chainKey} AND c.members IS NULL ORDER BY c.position`);
}

const Batch = z.object({
  position: z.number(),
  prev_hash: z.instanceof(Buffer),
  hash: z.instanceof(Buffer),
  // bigint[] arrives as strings (the int8 parser takes single values only).
  members: z.array(z.coerce.number()),
});
export type BatchLink = z.infer<typeof Batch>;

/** The chain's batch links (000100), in order, each naming its rows by seq. */
export async function batchLinks(db: Db | Tx, chainKey: string): Promise<readonly BatchLink[]> {
  return db.any(sql.type(Batch)`
    SELECT c.position, c.prev_hash, c.hash, c.members FROM audit_chain c
    WHERE c.chain_key = ${chainKey} AND c.members IS NOT NULL ORDER BY c.position`);
}

const Member = Row.extend({ position: z.number(), ord: z.number() });
export type BatchMember = z.infer<typeof Member>;

/**
 * The rows the chain's batch links name, by link and place in it. Each is
 * looked up by seq within its link's month (a batch never spans two), so a
 * look-up reads one partition; a row gone is simply missing from the answer.
 */
export async function batchMembers(db: Db | Tx, chainKey: string): Promise<readonly BatchMember[]> {
  return db.any(sql.type(Member)`
    SELECT c.position, m.ord, ${COLUMNS}
    FROM audit_chain c
    CROSS JOIN LATERAL unnest(c.members) WITH ORDINALITY AS m(seq, ord)
    JOIN audit_log l ON l.seq = m.seq
      AND l.occurred_at >= date_trunc('month', c.occurred_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
      AND l.occurred_at < (date_trunc('month', c.occurred_at AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC'
    WHERE c.chain_key = ${chainKey} AND c.members IS NOT NULL
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
export async function retainedRuns(db: Db | Tx, chainKey: string): Promise<readonly RetainedRun[]> {
  return db.any(sql.type(Retained)`
    SELECT first_position, last_position, first_prev, last_hash FROM audit_chain_retained
    WHERE chain_key = ${chainKey} ORDER BY first_position`);
}

export async function chainKeys(db: Db | Tx): Promise<readonly string[]> {
  return db.anyFirst(sql.type(z.object({ chain_key: z.string() }))`
    SELECT chain_key FROM audit_chain UNION SELECT chain_key FROM audit_chain_retained ORDER BY chain_key`);
}
