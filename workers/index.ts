import type { Logger } from 'pino';
import type { AuditSpool } from '../src/audit/spool.js';
import type { Config } from '../src/config.js';
import type { AuditRecord } from '../src/db/audit.js';
import type { Db } from '../src/db/pool.js';

/**
 * The background side of the service. Every process that runs workers also
 * replays audit rows that were spooled to local disk while Postgres was down.
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
}

// Often enough that a recovered database catches up within seconds, rarely enough to cost nothing.
const SPOOL_REPLAY_INTERVAL_MS = 5000;

export async function startWorkers(deps: WorkerDeps): Promise<Workers> {
  const replay = async () => {
    try {
      const n = await deps.spool.replay(deps.replayAudit);
      if (n > 0) deps.log.info({ rows: n }, 'replayed spooled audit rows');
    } catch (err) {
      deps.log.warn({ err }, 'audit spool replay failed; will retry');
    }
  };
  await replay();
  const timer = setInterval(replay, SPOOL_REPLAY_INTERVAL_MS);
  timer.unref();
  return {
    async close() {
      clearInterval(timer);
    },
  };
}
