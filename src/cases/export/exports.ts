import { createHash, randomUUID } from 'node:crypto';
import type { Keyring } from '../../auth/index.js';
import type { Principal } from '../../auth/index.js';
import type { CallContext } from '../../auth/index.js';
import { withTenant, type Db, type Mode, type Tx } from '../../platform/db/pool.js';
import { auditRowsOfTarget } from '../../audit/index.js';
import { ledgerOfEntities } from '../../inquiries/index.js';
import { keptBytesOfCase, MaterialOverBudget, materialOfCase } from '../../material/index.js';
import { observationsOfEntities } from '../../observations/index.js';
import {
  claimExport,
  exportBundleHead,
  exportBundleSlice,
  failExport,
  findExport,
  finishExport,
  recordExport,
  type ExportRow,
} from './store.js';
import { ServiceProblem } from '../../platform/problems.js';
import type { CaseExportOut, CaseOut } from '../schemas.js';
import type { CaseService, CaseView } from '../service.js';
import { manifestBytes, packBundle, type BundleFile } from './bundle.js';
import { activeKey, signManifest } from './keys.js';
import { VERIFYING_README } from './readme.js';

/**
 * Evidentiary export of a signed-off case (SPEC cases rule 6, DESIGN.md
 * section 3). `request` records the export of the case as it stands and hands
 * a job to the queue (the composition root supplies `enqueue`, so this module
 * knows nothing of BullMQ); `build` is what the export worker calls: it
 * gathers the case's files, signs the manifest with the service's active key
 * and keeps the bundle with the export row, where any edge can serve it.
 */
export interface ExportJob {
  exportId: string;
  attempt: number;
  tenantId: string;
  mode: Mode;
}

export interface CaseExportDeps {
  db: Db;
  /** The pepper the export signing key is sealed under, or the keyring while it rotates. */
  pepper: string | Keyring;
  cases: Pick<CaseService, 'view' | 'timeline' | 'graph'>;
  /**
   * case.json: the case as GET /v1/cases/{case_id} answers it, its address
   * included (src/cases/wire.ts caseBody, handed in by the composition root).
   */
  caseDocument: (view: CaseView) => CaseOut;
  enqueue(job: ExportJob): Promise<void>;
  now?: () => Date;
}

export type CaseExports = ReturnType<typeof createCaseExports>;

/** An export as its commands answer it: the route adds its download's address (src/cases/wire.ts exportBody). */
export type CaseExportView = Omit<CaseExportOut, 'download_url' | 'expires_at'>;

/** A ready bundle as the download streams it. */
export interface ExportDownload {
  size: number;
  /** Hex SHA-256 of the whole bundle, stored when it was built. */
  sha256: string;
  /** A plain function (no `this`), handed on as it is to the byte stream. */
  read: (offset: number, length: number) => Promise<Buffer>;
}

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

export function createCaseExports(deps: CaseExportDeps) {
  const now = deps.now ?? (() => new Date());

  function exportView(row: ExportRow): CaseExportView {
    return {
      export_id: row.id,
      case_id: row.case_id,
      format: row.format,
      status: row.status,
      manifest_sha256: row.manifest_sha256,
      requested_at: row.requested_at,
    };
  }

  /**
   * Signed off in review: a case in `signed_off` (held or not), or one closed
   * while its last review stood as a sign-off. A case closed without one, or
   * after a reviewer asked for changes, is not.
   */
  async function exportable(principal: Principal, caseId: string, state: string): Promise<boolean> {
    if (state === 'signed_off') return true;
    if (state !== 'closed') return false;
    let signedOff = false;
    for (const event of await deps.cases.timeline(principal, caseId)) {
      const change = event.type === 'CaseChanged' ? event.data.change : null;
      if (change === 'signed_off') signedOff = true;
      else if (change === 'review_requested_changes') signedOff = false;
    }
    return signedOff;
  }

  /** Asks for the bundle of a signed-off case; asking again before the case changes returns the same export. */
  async function request(ctx: CallContext, principal: Principal, caseId: string, format: string): Promise<CaseExportView> {
    ctx.audit.target_kind = 'case';
    ctx.audit.target_id = caseId;
    const current = await deps.cases.view(principal, caseId);
    ctx.audit.purpose = current.purpose;
    if (!(await exportable(principal, caseId, current.state))) {
      ctx.audit.rule = 'C02';
      throw new ServiceProblem(
        'conflict',
        'Only a signed-off case can be exported: a reviewer signs it off first (POST /v1/cases/{case_id}/review).',
        {
          rule: 'C02',
          case_state: current.state,
          legal_hold: current.legal_hold,
        },
      );
    }
    const row = await withTenant(deps.db, principal, async (tx) => {
      const recorded = await recordExport(tx, {
        id: randomUUID(),
        tenantId: principal.tenantId,
        mode: principal.mode,
        caseId,
        sequence: current.sequence,
        format,
        requestedBy: principal.label,
      });
      await ctx.auditInTx(tx, 'accepted');
      return recorded;
    });
    // Enqueued after commit, the job id being the export's id and attempt: asking again re-enqueues an export a lost job left
    // queued (BullMQ keeps one job per id), and a failed export comes back queued as its next attempt.
    if (row.status === 'queued' || row.status === 'building')
      await deps.enqueue({ exportId: row.id, attempt: row.attempt, tenantId: principal.tenantId, mode: principal.mode });
    return exportView(row);
  }

  async function view(principal: Principal, caseId: string, exportId: string): Promise<CaseExportView> {
    const row = await withTenant(deps.db, principal, (tx) => findExport(tx, caseId, exportId));
    if (!row) throw new ServiceProblem('not-found', 'No such export of this case.');
    return exportView(row);
  }

  /**
   * A ready bundle to stream (issue 40): its length, its stored SHA-256 (the
   * ETag), and its bytes read a slice at a time, each slice in its own short
   * transaction, so a slow client holds no connection and the edge never
   * holds the bundle whole.
   */
  async function download(principal: Principal, caseId: string, exportId: string): Promise<ExportDownload> {
    const found = await withTenant(deps.db, principal, async (tx) => ({
      row: await findExport(tx, caseId, exportId),
      head: await exportBundleHead(tx, caseId, exportId),
    }));
    if (!found.row) throw new ServiceProblem('not-found', 'No such export of this case.');
    if (!found.head)
      throw new ServiceProblem('conflict', `The export is ${found.row.status}, not ready.`, { export_status: found.row.status });
    return {
      size: found.head.size,
      sha256: found.head.sha256,
      read: (offset, length) => withTenant(deps.db, principal, (tx) => exportBundleSlice(tx, exportId, offset, length)),
    };
  }

  /** The export worker's step: idempotent (a claimed or finished export is left alone). */
  async function build(job: ExportJob): Promise<void> {
    const scope = { tenantId: job.tenantId, mode: job.mode };
    const claimed = await withTenant(deps.db, scope, (tx) => claimExport(tx, job.exportId));
    if (!claimed) return;
    try {
      const files = await gatherFiles(scope, claimed);
      const key = await activeKey(deps.db, deps.pepper);
      const manifest = manifestBytes(files, {
        kid: key.kid,
        case_id: claimed.case_id,
        export_id: claimed.id,
        created_at: now().toISOString(),
      });
      const bundle = await packBundle(files, manifest, signManifest(key, manifest));
      const manifestSha256 = createHash('sha256').update(manifest).digest('hex');
      // Hashed here, in the worker, once: the edge serves it as the ETag and never hashes the bundle.
      const bundleSha256 = createHash('sha256').update(bundle).digest('hex');
      await withTenant(deps.db, scope, (tx) => finishExport(tx, claimed.id, { bundle, bundleSha256, manifestSha256, kid: key.kid }));
    } catch (error) {
      // A refusal is final and said on the export; a fault is left to the queue's retries (the export stays building).
      if (!(error instanceof ExportRefused)) throw error;
      await withTenant(deps.db, scope, (tx) => failExport(tx, claimed.id, error.message));
    }
  }

  /** The queue gave up on an export's build after its last attempt. */
  async function giveUp(job: ExportJob): Promise<void> {
    await withTenant(deps.db, { tenantId: job.tenantId, mode: job.mode }, (tx) =>
      failExport(tx, job.exportId, 'The bundle could not be built; asking for the export again retries it.'),
    );
  }

  async function gatherFiles(scope: { tenantId: string; mode: Mode }, row: ExportRow): Promise<BundleFile[]> {
    const reader: Principal = {
      tenantId: scope.tenantId,
      mode: scope.mode,
      keyId: row.id,
      scopes: new Set(['cases']),
      label: `export:${row.id}`,
    };
    const current = await deps.cases.view(reader, row.case_id);
    if (current.sequence !== row.case_sequence || !(await exportable(reader, row.case_id, current.state))) {
      throw new ExportRefused('The case changed after the export was asked; ask again once it is signed off.');
    }
    const [timeline, graph] = [await deps.cases.timeline(reader, row.case_id), await deps.cases.graph(reader, row.case_id)];
    const rows = await withTenant(deps.db, scope, async (tx) => ({
      assessments: await ledgerOfEntities(tx, current.entity_ids),
      observations: await observationsOfEntities(tx, current.entity_ids),
      material: await materialOfCase(tx, row.case_id),
      audit: await auditRowsOfTarget(tx, row.case_id),
    }));
    return [
      { name: 'README.md', bytes: Buffer.from(VERIFYING_README) },
      { name: 'case.json', bytes: json(deps.caseDocument(current)) },
      { name: 'timeline.json', bytes: json(timeline) },
      { name: 'graph.json', bytes: json(graph) },
      { name: 'assessments.json', bytes: json(rows.assessments) },
      { name: 'observations.json', bytes: json(rows.observations) },
      { name: 'material.json', bytes: json(rows.material) },
      { name: 'audit.json', bytes: json(rows.audit) },
      ...(row.format === WITH_BYTES ? await withTenant(deps.db, scope, (tx) => materialBytesFiles(tx, scope, row.case_id)) : []),
    ];
  }

  return { request, view, download, build, giveUp };
}

/** The format that also carries the bytes of the case's material, where retention kept them. */
export const WITH_BYTES = 'bundle_with_bytes';
// The bundle is built in memory and stored in one row: the bytes it carries are capped.
export const MAX_EXPORTED_BYTES = 256 * 1024 * 1024;

/**
 * `material/<sha256>`: the bytes of each piece of the case's material that
 * keeps them (standard retention, not C2; rule D35 leaves nothing else to
 * export), named by their hash so the manifest's hash can be read against
 * the name.
 */
async function materialBytesFiles(tx: Tx, scope: { tenantId: string; mode: Mode }, caseId: string): Promise<BundleFile[]> {
  const kept = await keptBytesOfCase(tx, scope, caseId, MAX_EXPORTED_BYTES).catch((error: unknown) => {
    throw error instanceof MaterialOverBudget
      ? new ExportRefused(`The case's material is over ${MAX_EXPORTED_BYTES} bytes; export it as format bundle (hashes only).`)
      : error;
  });
  return kept.map(({ sha256, bytes }) => ({ name: `material/${sha256}`, bytes }));
}

/** A refusal the export states as its failure reason (the case moved on), not a fault. */
class ExportRefused extends Error {}
