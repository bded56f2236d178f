import { sql } from 'slonik';
import { z } from 'zod';
import { withSystem, type Db, type Tx } from '../platform/db/pool.js';
import { chainHeads, chainRows, chainKeys, insertLinks, retainedRuns, unlistSealed, unsealedRows, type ChainLink } from './chainStore.js';
import { chainKeyOf, GENESIS, link } from './chain.js';

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
    for (const row of rows) {
      const key = chainKeyOf(row);
      const head = heads.get(key) ?? { position: 0, hash: GENESIS };
      const next = { position: head.position + 1, hash: link(head.hash, row) };
      links.push({
        auditId: row.audit_id,
        chainKey: key,
        tenantId: row.tenant_id,
        mode: row.mode,
        position: next.position,
        prev: head.hash,
        hash: next.hash,
      });
      heads.set(key, next);
    }
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

async function verifyChainsIn(db: Tx, only?: string): Promise<ChainVerdict[]> {
  const keys = only ? [only] : await chainKeys(db);
  const verdicts: ChainVerdict[] = [];
  for (const key of keys) {
    const rows = await chainRows(db, key);
    // Runs of links dropped with their months (000090): each must start where the chain stands and
    // hand on its last link, so what is left still verifies across the gap.
    const runs = await retainedRuns(db, key);
    let prev: Buffer = GENESIS;
    let position = 1;
    let brokenAt: number | null = null;
    let r = 0;
    for (const row of rows) {
      while (r < runs.length && runs[r]!.first_position < row.position) {
        const run = runs[r++]!;
        if (run.first_position !== position || !run.first_prev.equals(prev)) break;
        prev = run.last_hash;
        position = run.last_position + 1;
      }
      const expected = link(prev, row);
      if (row.position !== position || !row.prev_hash.equals(prev) || !row.hash.equals(expected)) {
        brokenAt = Math.min(row.position, position);
        break;
      }
      prev = row.hash;
      position += 1;
    }
    for (; brokenAt === null && r < runs.length; r++) {
      const run = runs[r]!;
      if (run.first_position !== position || !run.first_prev.equals(prev)) brokenAt = position;
      prev = run.last_hash;
      position = run.last_position + 1;
    }
    verdicts.push({ chainKey: key, rows: rows.length, brokenAt });
  }
  return verdicts;
}
