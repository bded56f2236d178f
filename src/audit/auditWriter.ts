import { appendAuditBatch, type AuditRecord } from '../db/audit.js';
import type { Db } from '../db/pool.js';
import type { AuditSpool } from './spool.js';

/**
 * Group commit for the audit rows of calls that change nothing (reads,
 * refusals, 401s). Rows arriving within one flush interval share one INSERT;
 * each caller's promise settles when its row is durable, in Postgres or, when
 * Postgres is down, in the local spool (then `durableIn` says 'spool').
 */
const FLUSH_INTERVAL_MS = 2; // long enough to gather a burst, short next to a network round trip
const MAX_BATCH = 500; // keeps one statement's jsonb parameter well under a megabyte

export interface AuditWriter {
  append(row: AuditRecord): Promise<'db' | 'spool'>;
  close(): Promise<void>;
}

export function createAuditWriter(deps: { db: Db; spool: AuditSpool; onError?: (e: unknown) => void }): AuditWriter {
  let pending: { row: AuditRecord; done: (where: 'db' | 'spool') => void; fail: (e: unknown) => void }[] = [];
  let timer: NodeJS.Timeout | null = null;
  let inflight: Promise<void> = Promise.resolve();

  async function flush(): Promise<void> {
    timer = null;
    const batch = pending.splice(0, MAX_BATCH);
    if (pending.length > 0) schedule();
    if (batch.length === 0) return;
    const rows = batch.map((p) => p.row);
    try {
      await appendAuditBatch(deps.db, rows);
      for (const p of batch) p.done('db');
    } catch (error) {
      deps.onError?.(error);
      try {
        await deps.spool.write(rows);
        for (const p of batch) p.done('spool');
      } catch (spoolError) {
        for (const p of batch) p.fail(spoolError);
      }
    }
  }

  function schedule(): void {
    if (timer) return;
    timer = setTimeout(() => {
      inflight = inflight.then(flush);
    }, FLUSH_INTERVAL_MS);
  }

  return {
    append(row) {
      return new Promise((done, fail) => {
        pending.push({ row, done, fail });
        if (pending.length >= MAX_BATCH) {
          if (timer) clearTimeout(timer);
          timer = null;
          inflight = inflight.then(flush);
        } else schedule();
      });
    },
    async close() {
      if (timer) clearTimeout(timer);
      while (pending.length > 0) await flush();
      await inflight;
    },
  };
}
