import { assessmentOf } from '../assessment/index.js';
import { withTenant, type Db, type Tx } from '../platform/db/pool.js';
import { identifiersOf, latestLedgerEntry, ledgerOf, type LedgerRow, type StoredInputs } from './history.js';
import { membersOf, survivorOf } from './resolve.js';
import { ServiceProblem } from '../platform/problems.js';
import { dateTime } from '../schemas/common.js';
import { METHODOLOGY_VERSIONS, type MethodologyVersion } from '../scoring/index.js';
import type { EntityOut, LedgerEntryOut, LedgerInputs } from './schemas.js';
import type { Assessment } from '../assessment/schemas.js';
import type { AuditSink, Principal } from '../auth/index.js';

/**
 * Entities as the tenant may see them. An id merged into another answers as
 * its survivor; an unknown id and another tenant's or mode's id (invisible
 * under row-level security) get the same 404, so ids reveal nothing.
 */

/** An entity as the tenant sees it, but for its ledger's address, which its route adds. */
export type EntityView = Omit<EntityOut, 'ledger_url'>;

/** An entity as the tenant sees it: its presentations and its latest assessment. */
export async function viewEntity(deps: { db: Db }, call: AuditSink, principal: Principal, entityId: string): Promise<EntityView> {
  return withTenant(deps.db, principal, async (tx): Promise<EntityView> => {
    const { survivor, members } = await visibleEntity(tx, call, entityId);
    const identifiers = await identifiersOf(tx, members);
    const latest = await latestLedgerEntry(tx, members);
    return {
      entity_id: survivor.id,
      presentations: identifiers.map((i) => ({ type: i.type, value: i.normalised })),
      created_at: survivor.created_at,
      latest_assessment: latest === null ? null : toAssessment(latest),
    };
  });
}

/** Every assessment of the entity and of those merged into it, in order. */
export async function entityLedger(deps: { db: Db }, call: AuditSink, principal: Principal, entityId: string): Promise<LedgerEntryOut[]> {
  return withTenant(deps.db, principal, async (tx): Promise<LedgerEntryOut[]> => {
    const { members } = await visibleEntity(tx, call, entityId);
    const rows = await ledgerOf(tx, members);
    return rows.map((row) => ({
      entry_id: row.id,
      sequence: row.sequence,
      assessment: toAssessment(row),
      inputs: toLedgerInputs(row.inputs, row.methodology_version),
      recorded_at: row.created_at,
    }));
  });
}

async function visibleEntity(tx: Tx, call: AuditSink, requested: string) {
  call.audit.target_kind = 'entity';
  call.audit.target_id = requested;
  const survivor = await survivorOf(tx, requested);
  if (survivor === null) throw new ServiceProblem('not-found', 'No such entity.');
  return { survivor, members: await membersOf(tx, survivor.id) };
}

/**
 * The assessment exactly as published: its `entity_id` is the one it was
 * issued under, even when that entity has since been merged, because a
 * published assessment never changes retroactively.
 */
function toAssessment(row: LedgerRow): Assessment {
  return assessmentOf(row);
}

/**
 * The stored inputs in the published shape: the version, the admitted items
 * (stored order kept, since the order is the order of the sums): the scored
 * ones with the fields the scoring function reads (four in v1, five with the
 * strength from v2 on), and the neutral ones, which it skips but the evidence
 * summary counts (entries recorded before the ledger kept neutral items have
 * none), and the count of absences. Feeding this, or the whole entry, to
 * `tas score` reproduces the entry's score, interval and evidence summary.
 */
export function toLedgerInputs(stored: StoredInputs, methodologyVersion: string): LedgerInputs {
  const evidence: LedgerInputs['evidence'] = [];
  for (const item of stored.evidence) {
    if (item.disposition !== 'supports' && item.disposition !== 'weakens' && item.disposition !== 'neutral') continue;
    evidence.push({
      provenance_class: item.provenance_class,
      trust_band: item.trust_band,
      observed_at: isoInstant(item.observed_at),
      disposition: item.disposition,
      ...(item.strength === undefined || item.disposition === 'neutral' ? {} : { strength: item.strength }),
    });
  }
  const absences = typeof stored.absences === 'number' ? stored.absences : stored.absences.length;
  return {
    methodology_version: publishedVersion(methodologyVersion),
    as_of: isoInstant(stored.as_of),
    evidence,
    absences,
    ...(stored.data_snapshots === undefined ? {} : { data_snapshots: stored.data_snapshots }),
  };
}

/** Every stored assessment names a version the scoring function still implements: they all stay forever. */
function publishedVersion(version: string): MethodologyVersion {
  if ((METHODOLOGY_VERSIONS as readonly string[]).includes(version)) return version as MethodologyVersion;
  throw new Error(`a ledger entry names an unknown methodology version ${JSON.stringify(version)}`);
}

/**
 * Kept as stored when it is already a date-time with a zone (so the scoring
 * function reads the very same string); otherwise (a date alone) the same
 * instant written as the contract writes timestamps.
 */
function isoInstant(value: string): string {
  if (dateTime.safeParse(value).success) return value;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}
