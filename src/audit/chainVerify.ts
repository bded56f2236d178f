import { withSystem, type Db, type Tx } from '../platform/db/pool.js';
import {
  batchLinks,
  batchMembers,
  chainKeys,
  chainRows,
  REFUSAL_TRAIL,
  retainedRuns,
  TENANT_TRAIL,
  type RetainedRun,
  type Trail,
} from './chainStore.js';
import { ANONYMOUS_CHAIN, batchLink, GENESIS, link, type ChainRow } from './chain.js';
import { chainSeals, factsOf, type SealRow } from './sealStore.js';
import { sealSignatureProblem, type PublishedKey } from './sealSignature.js';

/**
 * The operator's verification (`tas audit verify`): every chain of both
 * trails (000120) recomputed from its first link, across what retention
 * dropped, and every seal checked against the links it names.
 */
export interface ChainVerdict {
  chainKey: string;
  rows: number;
  /** The first position whose link (or a seal naming it) does not recompute, or null when the chain is whole. */
  brokenAt: number | null;
  /** With the published keys: the chain's seals not signed yet (the sealer signs them on its next passes). */
  unsigned?: number;
}

export async function verifyAuditChains(db: Db, only?: string, published?: readonly PublishedKey[]): Promise<ChainVerdict[]> {
  return withSystem(db, async (tx) => {
    const verdicts: ChainVerdict[] = [];
    for (const trail of [TENANT_TRAIL, REFUSAL_TRAIL]) {
      const keys = await chainKeys(tx, trail);
      for (const key of only === undefined ? keys : keys.filter((k) => k === only))
        verdicts.push(await verifyChain(tx, trail, key, published));
    }
    return verdicts;
  });
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
async function storedLinks(db: Tx, trail: Trail, key: string): Promise<{ links: StoredLink[]; rows: number }> {
  const single: StoredLink[] = (await chainRows(db, key, trail)).map((r) => ({ ...r, rows: [r], batch: false }));
  if (key !== ANONYMOUS_CHAIN) return { links: single, rows: single.length };
  const batches = await batchLinks(db);
  if (batches.length === 0) return { links: single, rows: single.length };
  const found = new Map<number, ChainRow[]>();
  const misplaced = new Set<number>();
  for (const m of await batchMembers(db)) {
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

async function verifyChain(db: Tx, trail: Trail, key: string, published?: readonly PublishedKey[]): Promise<ChainVerdict> {
  const { links, rows } = await storedLinks(db, trail, key);
  const runs = await retainedRuns(db, key, trail);
  const seals = await chainSeals(db, trail, key);
  // The link at each position a seal names (its last, and the one before its first), as recomputed.
  const named = new Set(seals.flatMap((s) => [s.first_position - 1, s.last_position]));
  const hashAt = new Map<number, Buffer>([[0, GENESIS]]);
  let brokenAt = walk(links, runs, (position, hash) => {
    if (named.has(position)) hashAt.set(position, hash);
  });
  if (brokenAt === null) brokenAt = brokenSeal(seals, hashAt, runs);
  if (published === undefined) return { chainKey: key, rows, brokenAt };
  const badSignature = seals.find((s) => s.signature !== null && signatureProblem(key, s, published) !== null);
  if (badSignature && (brokenAt === null || badSignature.last_position < brokenAt)) brokenAt = badSignature.last_position;
  return { chainKey: key, rows, brokenAt, unsigned: seals.filter((s) => s.signature === null).length };
}

function signatureProblem(chainKey: string, seal: SealRow, published: readonly PublishedKey[]): string | null {
  const [tenantId, mode] = chainKey === ANONYMOUS_CHAIN ? [null, null] : chainKey.split(':');
  const facts = factsOf(
    {
      chainKey,
      tenantId: tenantId ?? null,
      mode: mode ?? null,
      firstPosition: seal.first_position,
      lastPosition: seal.last_position,
      links: seal.links,
      firstPrev: seal.first_prev,
      lastHash: seal.last_hash,
    },
    seal.period,
  );
  return sealSignatureProblem(published, facts, { kid: seal.kid!, signedAt: seal.signed_at!, signature: seal.signature! });
}

/** Recomputes the links in order across retained runs; the first position that does not hold, or null. */
function walk(links: readonly StoredLink[], runs: readonly RetainedRun[], seen: (position: number, hash: Buffer) => void): number | null {
  // Runs of links dropped with their months (000090): each must start where the chain stands and
  // hand on its last link, so what is left still verifies across the gap.
  let prev: Buffer = GENESIS;
  let position = 1;
  let r = 0;
  const skip = (run: RetainedRun): boolean => {
    if (run.first_position !== position || !run.first_prev.equals(prev)) return false;
    prev = run.last_hash;
    position = run.last_position + 1;
    seen(run.last_position, run.last_hash);
    return true;
  };
  for (const stored of links) {
    while (r < runs.length && runs[r]!.first_position < stored.position) if (!skip(runs[r++]!)) return position;
    const expected = stored.rows === null ? null : stored.batch ? batchLink(prev, stored.rows) : link(prev, stored.rows[0]!);
    if (stored.position !== position || !stored.prev_hash.equals(prev) || expected === null || !stored.hash.equals(expected)) {
      return Math.min(stored.position, position);
    }
    prev = stored.hash;
    seen(position, prev);
    position += 1;
  }
  for (; r < runs.length; r++) if (!skip(runs[r]!)) return position;
  return null;
}

/** The first position a seal names wrongly: its last link, or the link before its first, differs from the chain's. */
function brokenSeal(seals: readonly SealRow[], hashAt: Map<number, Buffer>, runs: readonly RetainedRun[]): number | null {
  const dropped = (p: number) => runs.some((run) => p >= run.first_position && p < run.last_position);
  let before: SealRow | null = null;
  for (const seal of seals) {
    const last = hashAt.get(seal.last_position);
    const prev = hashAt.get(seal.first_position - 1);
    const meets = before === null || (before.last_position + 1 === seal.first_position && before.last_hash.equals(seal.first_prev));
    if (!meets) return seal.first_position;
    if (!dropped(seal.first_position - 1) && (prev === undefined || !prev.equals(seal.first_prev))) return seal.first_position;
    if (!dropped(seal.last_position) && (last === undefined || !last.equals(seal.last_hash))) return seal.last_position;
    before = seal;
  }
  return null;
}
