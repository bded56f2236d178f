import { randomUUID } from 'node:crypto';
import { insertExtractions, type NewExtraction } from './store.js';
import { lockForExtraction, markExtracted, markFailed, type ExtractionTarget } from './bytesStore.js';
import { postgresByteStore, type OpenByteStore } from './byteStore.js';
import { withTenant, type Db, type Mode } from '../platform/db/pool.js';
import { BYTES_EXTRACTOR_VERSION } from './extractBytes.js';
import { DEFAULT_PARSER_LIMITS, extractInParser, type ParserLimits } from './parserProcess.js';
import { ExtractionFailure, regionOptions, type ExtractedThing } from './extractors/types.js';
import { fingerprintOf } from './extractText.js';
import { judgeBytes } from './sniff.js';
import { MAX_ITEMS_PER_MATERIAL } from './extractText.js';

/**
 * The extraction of uploaded bytes, as a command the material worker calls
 * with a job's material id. In three steps, so no transaction stays open
 * while a document is parsed: read the bytes, extract them in a parser
 * process with no secrets and bounded memory and time (parserProcess.ts), then store the items and the outcome in one transaction, which is
 * also where transient and C2 bytes are deleted (D35).
 *
 * Safe to run twice (a job retried after a crash): a material that is no
 * longer `received` is left alone. A file that cannot be read ends as
 * `failed` with its reason (a parser killed at its memory or time limit
 * included); a fault of ours (the parser process crashed otherwise, the OCR
 * model is missing) is thrown so the queue retries, and `giveUp` records
 * `extractor_failed` after the last attempt.
 */
export interface MaterialJob {
  materialId: string;
  tenantId: string;
  mode: Mode;
}

export interface MaterialExtraction {
  extract(job: MaterialJob): Promise<void>;
  giveUp(job: MaterialJob): Promise<void>;
}

export function createMaterialExtraction(deps: { db: Db; openBytes?: OpenByteStore; parserLimits?: ParserLimits }): MaterialExtraction {
  const openBytes = deps.openBytes ?? postgresByteStore;
  const limits = deps.parserLimits ?? DEFAULT_PARSER_LIMITS;
  return {
    async extract(job) {
      const loaded = await withTenant(deps.db, job, async (tx) => {
        const target = await lockForExtraction(tx, job.materialId);
        if (!target || target.status !== 'received') return null;
        return { target, bytes: await openBytes(tx, job).read(target.sha256) };
      });
      if (!loaded) return;
      const outcome = await extractOutcome(loaded.target, loaded.bytes, limits);
      await store(deps.db, openBytes, job, loaded.target, outcome);
    },
    async giveUp(job) {
      await store(deps.db, openBytes, job, null, { ok: false, reason: 'extractor_failed' });
    },
  };
}

type Outcome = { ok: true; found: ExtractedThing[] } | { ok: false; reason: ExtractionFailure['reason'] };

async function extractOutcome(target: ExtractionTarget, bytes: Buffer, limits: ParserLimits): Promise<Outcome> {
  const verdict = judgeBytes(target.media_type, bytes.subarray(0, 8192));
  if (!verdict.ok) return { ok: false, reason: verdict.reason };
  try {
    return {
      ok: true,
      found: (await extractInParser(verdict.family, bytes, regionOptions(target.phone_region), target.media_type, limits)).slice(
        0,
        MAX_ITEMS_PER_MATERIAL,
      ),
    };
  } catch (error) {
    if (error instanceof ExtractionFailure) return { ok: false, reason: error.reason };
    throw error;
  }
}

async function store(db: Db, openBytes: OpenByteStore, job: MaterialJob, seen: ExtractionTarget | null, outcome: Outcome): Promise<void> {
  await withTenant(db, job, async (tx) => {
    const target = await lockForExtraction(tx, job.materialId);
    // Another attempt finished first, or the material changed under us: its outcome stands.
    if (!target || target.status !== 'received' || (seen && seen.sha256 !== target.sha256)) return;
    const keep = target.retention_mode === 'standard' && target.data_class !== 'C2';
    if (outcome.ok) {
      const items = outcome.found.map((thing, seq) => stored(job, target, thing, seq));
      await insertExtractions(tx, { tenantId: job.tenantId, mode: job.mode, materialId: target.id }, items);
      await markExtracted(tx, { id: target.id, extractorVersion: BYTES_EXTRACTOR_VERSION, items: items.length, bytesStored: keep });
    } else {
      await markFailed(tx, { id: target.id, reason: outcome.reason, extractorVersion: BYTES_EXTRACTOR_VERSION, bytesStored: keep });
    }
    if (!keep) await openBytes(tx, job).deleteUnlessKept(target.sha256);
  });
}

/** C2 material keeps a fingerprint in place of each value (outcomes only), as inline text does. */
function stored(job: MaterialJob, target: ExtractionTarget, thing: ExtractedThing, seq: number): NewExtraction {
  const outcomesOnly = target.data_class === 'C2';
  const artifact = thing.targetKind === 'artifact';
  return {
    bindingId: randomUUID(),
    seq,
    type: thing.type,
    value: outcomesOnly ? null : thing.normalised,
    targetKind: outcomesOnly ? 'fingerprint' : thing.targetKind,
    targetId: outcomesOnly ? fingerprintOf(job, thing.type, thing.normalised) : artifact ? `${thing.type}:${thing.normalised}` : thing.type,
    locatorKind: thing.locatorKind,
    locator: thing.locator,
    confidence: thing.confidence,
  };
}
