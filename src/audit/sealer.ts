import { sql } from 'slonik';
import { z } from 'zod';
import { withSystem, type Db, type Tx } from '../platform/db/pool.js';
import {
  batchLinks,
  batchMembers,
  chainHeads,
  chainRows,
  chainKeys,
  insertLinks,
  retainedRuns,
  unlistSealed,
  unsealedRows,
  type ChainLink,
  type UnsealedRow,
} from './chainStore.js';
import { ANONYMOUS_CHAIN, batchLink, chainKeyOf, GENESIS, link, type ChainRow } from './chain.js';

/**
 * Seals audit rows into their chains, after the fact. Only rows older than a
 * horizon are taken, so a row whose transaction is still open is not skipped
 * over by a later one; one sealer runs at a time (advisory lock) across every
 * process, so two never extend a chain from the same head.
 */
// Well past the statement and idle-in-transaction timeouts (10 s): by then a row's transaction has ended.
export const SEAL_HORIZON_MS = 15_000;
const BATCH = 1000;
const SEALER_LOCK_KEY = 7_401_355_22;

/**
 * Every statement of a pass is a few index look-ups (the work list's head, each row by its key, one chain
 * head per chain). Partitions young or never analysed (000090) would otherwise get plans, cached for the
 * session, that read or hash a whole month for a handful of rows; a pass allows none of that.
 */
const PASS_SETTINGS = sql.fragment`set_config('enable_seqscan', 'off', true) AS seqscan, set_config('enable_hashjoin', 'off', true) AS hashjoin,
  set_config('enable_mergejoin', 'off', true) AS mergejoin`;
export async function sealerSettings(tx: Tx): Promise<void> {
  await tx.query(sql.unsafe`SELECT ${PASS_SETTINGS}`);
}
/** The same, as text, for a raw connection (a test explaining the sealer's statements). */
export const SEALER_SETTINGS = `SELECT set_config('enable_seqscan', 'off', true), set_config('enable_hashjoin', 'off', true),
  set_config('enable_mergejoin', 'off', true)`;

export async function sealAudit(db: Db, horizonMs = SEAL_HORIZON_MS): Promise<number> {
  return withSystem(db, async (tx) => {
    // The lock and the pass's planner settings in one statement.
    const { locked } = await tx.one(
      sql.type(
        z.object({ locked: z.boolean() }).passthrough(),
      )`SELECT pg_try_advisory_xact_lock(${SEALER_LOCK_KEY}) AS locked, ${PASS_SETTINGS}`,
    );
    if (!locked) return 0;
    const rows = await unsealedRows(tx, horizonMs, BATCH);
    // Every chain's head in one statement, the links computed here, then all written in one: a pass
    // costs a fixed number of round trips, not one per call sealed.
    const heads = await chainHeads(tx, [...new Set(rows.map(chainKeyOf))]);
    const links: ChainLink[] = [];
    const extend = (key: string, batch: readonly UnsealedRow[], members: readonly number[] | null) => {
      const head = heads.get(key) ?? { position: 0, hash: GENESIS };
      const next = { position: head.position + 1, hash: members === null ? link(head.hash, batch[0]!) : batchLink(head.hash, batch) };
      links.push({
        auditId: batch[0]!.audit_id,
        chainKey: key,
        tenantId: batch[0]!.tenant_id,
        mode: batch[0]!.mode,
        position: next.position,
        prev: head.hash,
        hash: next.hash,
        members,
      });
      heads.set(key, next);
    };
    // A tenant's row gets a link of its own; the anonymous rows of the pass one link per UTC month
    // (000100), so a link and every row it names share a month's partitions.
    const anonymous = new Map<string, UnsealedRow[]>();
    for (const row of rows) {
      const key = chainKeyOf(row);
      if (key !== ANONYMOUS_CHAIN) extend(key, [row], null);
      else {
        const month = new Date(row.occurred_at).toISOString().slice(0, 7);
        const batch = anonymous.get(month);
        if (batch) batch.push(row);
        else anonymous.set(month, [row]);
      }
    }
    for (const batch of anonymous.values())
      extend(
        ANONYMOUS_CHAIN,
        batch,
        batch.map((r) => r.seq),
      );
    await insertLinks(tx, links);
    await unlistSealed(
      tx,
      rows.map((r) => r.audit_id),
    );
    return rows.length;
  });
}

export interface ChainVerdict {
  chainKey: string;
  rows: number;
  /** The first position whose link does not recompute, or null when the chain is whole. */
  brokenAt: number | null;
}

export async function verifyAuditChains(db: Db, only?: string): Promise<ChainVerdict[]> {
  return withSystem(db, async (tx) => verifyChainsIn(tx, only));
}

/** A link as the verifier reads it back: the rows it covers, or null when one of them is gone. */
interface StoredLink {
  position: number;
  prev_hash: Buffer;
  hash: Buffer;
  rows: readonly ChainRow[] | null;
  batch: boolean;
}

/** Every link of a chain, one-row and batch links (000100) together, in order. */
async function storedLinks(db: Tx, key: string): Promise<{ links: StoredLink[]; rows: number }> {
  const single: StoredLink[] = (await chainRows(db, key)).map((r) => ({ ...r, rows: [r], batch: false }));
  const batches = await batchLinks(db, key);
  if (batches.length === 0) return { links: single, rows: single.length };
  const found = new Map<number, ChainRow[]>();
  const misplaced = new Set<number>();
  for (const m of await batchMembers(db, key)) {
    const at = found.get(m.position) ?? [];
    // Rows come by place in the link: the row named at place n must be the n-th found, and found once.
    if (m.ord !== at.length + 1) misplaced.add(m.position);
    at.push(m);
    found.set(m.position, at);
  }
  const batched: StoredLink[] = batches.map((b) => {
    const rows = found.get(b.position) ?? [];
    const whole = rows.length === b.members.length && !misplaced.has(b.position);
    return { position: b.position, prev_hash: b.prev_hash, hash: b.hash, rows: whole ? rows : null, batch: true };
  });
  const links = [...single, ...batched].sort((a, b) => a.position - b.position);
  return { links, rows: single.length + batches.reduce((n, b) => n + b.members.length, 0) };
}

async function verifyChainsIn(db: Tx, only?: string): Promise<ChainVerdict[]> {
  const keys = only ? [only] : await chainKeys(db);
  const verdicts: ChainVerdict[] = [];
  for (const key of keys) {
    const { links, rows } = await storedLinks(db, key);
    // Runs of links dropped with their months (000090): each must start where the chain stands and
    // hand on its last link, so what is left still verifies across the gap.
    const runs = await retainedRuns(db, key);
    let prev: Buffer = GENESIS;
    let position = 1;
    let brokenAt: number | null = null;
    let r = 0;
    for (const stored of links) {
      while (r < runs.length && runs[r]!.first_position < stored.position) {
        const run = runs[r++]!;
        if (run.first_position !== position || !run.first_prev.equals(prev)) break;
        prev = run.last_hash;
        position = run.last_position + 1;
      }
      const expected = stored.rows === null ? null : stored.batch ? batchLink(prev, stored.rows) : link(prev, stored.rows[0]!);
      if (stored.position !== position || !stored.prev_hash.equals(prev) || expected === null || !stored.hash.equals(expected)) {
        brokenAt = Math.min(stored.position, position);
        break;
      }
      prev = stored.hash;
      position += 1;
    }
    for (; brokenAt === null && r < runs.length; r++) {
      const run = runs[r]!;
      if (run.first_position !== position || !run.first_prev.equals(prev)) brokenAt = position;
      prev = run.last_hash;
      position = run.last_position + 1;
    }
    verdicts.push({ chainKey: key, rows, brokenAt });
  }
  return verdicts;
}
