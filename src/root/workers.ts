import type { Logger } from 'pino';
import type { AuditSpool } from '../audit/spool.js';
import type { Config } from '../platform/config.js';
import type { AuditRecord } from '../audit/store.js';
import type { Db } from '../platform/db/pool.js';
import { keptSealSigner, sealAudit } from '../audit/sealer.js';
import { activeKey } from '../cases/export/keys.js';

/**
 * The background side of the service. Every process that runs workers also
 * replays audit rows that were spooled to local disk while Postgres was down,
 * seals audit rows into their hash chains, concludes inquiries left open
 * past their deadline (a timer or check job lost to an outage), and restores
 * monitor schedules that Redis lost, from PostgreSQL, and sweeps material
 * whose upload expired or whose extraction was lost.
 */
export interface Workers {
  close(): Promise<void>;
}

export interface WorkerDeps {
  config: Config;
  db: Db;
  log: Logger;
  spool: AuditSpool;
  replayAudit: (rows: AuditRecord[]) => Promise<void>;
  /** Concludes inquiries left open past their bound (src/inquiries/sweeper.ts); returns how many. */
  sweepInquiries?: () => Promise<number>;
  /** Restores monitor schedules missing from Redis (src/monitors/reconcile.ts). */
  reconcileMonitors?: () => Promise<{ restored: number; removed: number }>;
  /** Discards expired uploads and queues lost extractions again (src/material/retention.ts). */
  sweepMaterial?: () => Promise<{ discarded: number; requeued: number }>;
}

// Often enough that a recovered database catches up within seconds, rarely enough to cost nothing.
const SPOOL_REPLAY_INTERVAL_MS = 5000;
// Sealing keeps the chain's tail within seconds of the horizon; each run is one short transaction.
const SEAL_INTERVAL_MS = 2000;
// Inquiries overdue by minutes are concluded within seconds of the outage ending.
const SWEEP_INTERVAL_MS = 10_000;
// A Redis that lost its data loses at most a minute of monitor cadence.
const RECONCILE_INTERVAL_MS = 60_000;

export async function startWorkers(deps: WorkerDeps): Promise<Workers> {
  const replay = async () => {
    try {
      const n = await deps.spool.replay(deps.replayAudit);
      if (n > 0) deps.log.info({ rows: n }, 'replayed spooled audit rows');
    } catch (err) {
      deps.log.warn({ err }, 'audit spool replay failed; will retry');
    }
  };
  // Every seal signed with the export signing key, the case bundles' (issue 50), opened once and kept while it
  // is the active key: a pass names the active kid, so a rotation is seen by the next pass (src/audit/sealKeys.ts).
  const signer = keptSealSigner(() => activeKey(deps.db, deps.config.keyPepper));
  const seal = async () => {
    try {
      await sealAudit(deps.db, undefined, signer);
    } catch (err) {
      deps.log.warn({ err }, 'audit sealing failed; will retry');
    }
  };
  const sweep = async () => {
    try {
      const n = (await deps.sweepInquiries?.()) ?? 0;
      if (n > 0) deps.log.warn({ inquiries: n }, 'concluded inquiries left open past their deadline');
    } catch (err) {
      deps.log.warn({ err }, 'inquiry deadline sweep failed; will retry');
    }
  };
  const reconcile = async () => {
    try {
      const r = await deps.reconcileMonitors?.();
      if (r && (r.restored > 0 || r.removed > 0)) deps.log.warn(r, 'monitor schedules reconciled from PostgreSQL');
    } catch (err) {
      deps.log.warn({ err }, 'monitor schedule reconciliation failed; will retry');
    }
  };
  const sweepMaterial = async () => {
    try {
      const r = await deps.sweepMaterial?.();
      if (r && r.requeued > 0) deps.log.warn(r, 'material extractions queued again after they were lost');
      else if (r && r.discarded > 0) deps.log.info(r, 'material whose upload expired discarded');
    } catch (err) {
      deps.log.warn({ err }, 'material sweep failed; will retry');
    }
  };
  await replay();
  await reconcile();
  const timers = [
    // Each pass catches and logs its own failure.
    setInterval(() => void replay(), SPOOL_REPLAY_INTERVAL_MS),
    setInterval(() => void seal(), SEAL_INTERVAL_MS),
    setInterval(() => void sweep(), SWEEP_INTERVAL_MS),
    setInterval(() => void reconcile(), RECONCILE_INTERVAL_MS),
    setInterval(() => void sweepMaterial(), RECONCILE_INTERVAL_MS),
  ];
  for (const t of timers) t.unref();
  return {
    close() {
      for (const t of timers) clearInterval(t);
      return Promise.resolve();
    },
  };
}
