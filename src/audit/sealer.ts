import { sql } from 'slonik';
import { z } from 'zod';
import { withSystem, type Db, type Tx } from '../platform/db/pool.js';
import {
  chainHeads,
  REFUSAL_TRAIL,
  TENANT_TRAIL,
  unsealedRows,
  writeLinks,
  type ChainLink,
  type Trail,
  type UnsealedRow,
} from './chainStore.js';
import { ANONYMOUS_CHAIN, batchLink, chainKeyOf, GENESIS, link } from './chain.js';
import { recordSeals, signUnsignedSeals, type Seal } from './sealStore.js';
import type { SealKey, SealSigner } from './sealSignature.js';

export { verifyAuditChains, type ChainVerdict } from './chainVerify.js';
export { keptSealSigner } from './sealKeys.js';

/**
 * Seals audit rows into their chains, after the fact: a call's transaction
 * only appends its row (and its work list entry), so many calls of one tenant
 * commit side by side and none waits on a chain head. Only rows older than a
 * horizon are taken, so a row whose transaction is still open is not skipped
 * over by a later one. Each trail (000120) has its own pass, lock and budget:
 * the tenants' chains (one per tenant and mode, one link per row) and the
 * anonymous chain (a link per batch), so a flood of refusals never delays
 * a tenant's sealing. One pass of a trail runs at a time across every process
 * (advisory lock), so two never extend a chain from the same head. Each pass
 * also grows, per chain it extended, that chain's seal of the day.
 */
// Well past the statement and idle-in-transaction timeouts (10 s): by then a row's transaction has ended.
export const SEAL_HORIZON_MS = 15_000;
const BATCH = 1000;
const SEALER_LOCK_KEY = { tenants: 7_401_355_22, refusals: 7_401_355_23 } as const;

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

// Seals made before 000140 (or by a pass without the key) signed per pass: a few statements each, soon none left.
const UNSIGNED_PER_PASS = 100;

/**
 * One pass over each trail; the rows sealed in all. With a signer (the
 * service's export signing key, sealSignature.ts) every seal a pass writes
 * is signed, and seals not signed yet are signed a few at a time; without
 * one (a test's pass, a tool), seals are written unsigned, to be signed by
 * the next pass that has the key. The key is asked for once a pass (again
 * only if the active key changed between the trails' statements), and only
 * by a pass that has something to sign; the signer is told which key the
 * pass read as active, so a kept signer (keptSealSigner) opens it only when
 * it changed.
 */
export async function sealAudit(db: Db, horizonMs = SEAL_HORIZON_MS, signer?: SealSigner): Promise<number> {
  // A key that cannot be had (its pepper gone, say) must not stop the chains: the pass seals unsigned, the
  // next pass with the key signs what this one left, and the failure is thrown once the rows are sealed.
  let failure: unknown = null;
  let asked: { kid: string | null; key: Promise<SealKey | null> } | null = null;
  const key = (activeKid: string | null): Promise<SealKey | null> => {
    if (!signer) return Promise.resolve(null);
    if (asked === null || asked.kid !== activeKid) {
      const opening = signer(activeKid).catch((error: unknown) => {
        failure = error;
        return null;
      });
      asked = { kid: activeKid, key: opening };
    }
    return asked.key;
  };
  const tenants = await sealTrail(db, TENANT_TRAIL, horizonMs, key);
  const refusals = await sealTrail(db, REFUSAL_TRAIL, horizonMs, key);
  if (failure !== null)
    throw new Error(`audit rows sealed (${tenants + refusals}), their seals unsigned: no signing key`, { cause: failure });
  return tenants + refusals;
}

const PassStart = z
  .object({ locked: z.boolean(), today: z.string(), unsigned: z.boolean(), signing_kid: z.string().nullable() })
  .passthrough();

async function sealTrail(
  db: Db,
  trail: Trail,
  horizonMs: number,
  keyOf: (activeKid: string | null) => Promise<SealKey | null>,
): Promise<number> {
  return withSystem(db, async (tx) => {
    // The lock, the UTC day the pass's seals belong to, whether any seal waits for a signature (000140: the
    // partial index of unsigned seals, empty once all are signed), which export signing key is active (the
    // one-active index of 000014; a kept key is used only while it is this one) and the pass's planner
    // settings, in one statement.
    const start = await tx.one(
      sql.type(PassStart)`SELECT pg_try_advisory_xact_lock(${SEALER_LOCK_KEY[trail.kind]}) AS locked,
          (now() AT TIME ZONE 'UTC')::date::text AS today,
          EXISTS (SELECT 1 FROM ${trail.seals} WHERE signature IS NULL) AS unsigned,
          (SELECT kid FROM export_signing_keys WHERE retired_at IS NULL) AS signing_kid, ${PASS_SETTINGS}`,
    );
    const { locked, today, unsigned } = start;
    if (!locked) return 0;
    const key = () => keyOf(start.signing_kid);
    if (unsigned) {
      const signing = await key();
      if (signing !== null) await signUnsignedSeals(tx, trail, signing, UNSIGNED_PER_PASS);
    }
    const rows = await unsealedRows(tx, horizonMs, BATCH, trail);
    if (rows.length === 0) return 0;
    // Every chain's head and seal of the day in one statement, the links computed here, then all written in
    // one: a pass costs a fixed number of round trips, not one per call sealed.
    const heads = await chainHeads(tx, [...new Set(rows.map(chainKeyOf))], trail, today);
    const todays = new Map([...heads].map(([chain, head]) => [chain, head.today]));
    const { links, seals } = linksOf(rows, heads);
    await writeLinks(tx, links, rows, trail);
    await recordSeals(tx, trail, seals, today, todays, await key());
    return rows.length;
  });
}

/**
 * The pass's links and, per chain extended, what the day's seal grows by. A
 * tenant's row gets a link of its own; the anonymous rows of the pass one
 * link per UTC month (000100), so a link and every row it names share a
 * month's partitions.
 */
export function linksOf(
  rows: readonly UnsealedRow[],
  heads: Map<string, { position: number; hash: Buffer }>,
): { links: ChainLink[]; seals: Seal[] } {
  const links: ChainLink[] = [];
  const seals = new Map<string, Seal>();
  const extend = (key: string, batch: readonly UnsealedRow[], members: readonly number[] | null) => {
    const head = heads.get(key) ?? { position: 0, hash: GENESIS };
    const next = { position: head.position + 1, hash: members === null ? link(head.hash, batch[0]!) : batchLink(head.hash, batch) };
    const first = batch[0]!;
    links.push({
      auditId: first.audit_id,
      chainKey: key,
      tenantId: first.tenant_id,
      mode: first.mode,
      position: next.position,
      prev: head.hash,
      hash: next.hash,
      members,
    });
    heads.set(key, next);
    const seal = seals.get(key);
    if (seal) Object.assign(seal, { lastPosition: next.position, lastHash: next.hash, links: seal.links + 1 });
    else
      seals.set(key, {
        chainKey: key,
        tenantId: first.tenant_id,
        mode: first.mode,
        firstPosition: next.position,
        lastPosition: next.position,
        links: 1,
        firstPrev: head.hash,
        lastHash: next.hash,
      });
  };
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
  return { links, seals: [...seals.values()] };
}
