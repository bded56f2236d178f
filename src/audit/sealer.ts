import { sql } from 'slonik';
import { withSystem, type Db, type Tx } from '../platform/db/pool.js';
import { chainHeads, chainRows, chainKeys, insertLinks, unlistSealed, unsealedRows, type ChainLink } from './chainStore.js';
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

export async function sealAudit(db: Db, horizonMs = SEAL_HORIZON_MS): Promise<number> {
  return withSystem(db, async (tx) => {
    const locked = await tx.oneFirst(sql.unsafe`SELECT pg_try_advisory_xact_lock(${SEALER_LOCK_KEY}) AS locked`);
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
    let prev: Buffer = GENESIS;
    let brokenAt: number | null = null;
    for (const [i, row] of rows.entries()) {
      const expected = link(prev, row);
      if (row.position !== i + 1 || !row.prev_hash.equals(prev) || !row.hash.equals(expected)) {
        brokenAt = row.position;
        break;
      }
      prev = row.hash;
    }
    verdicts.push({ chainKey: key, rows: rows.length, brokenAt });
  }
  return verdicts;
}
