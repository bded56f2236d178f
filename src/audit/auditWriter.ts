import { appendAuditBatch, type AuditRecord } from './store.js';
import type { Db } from '../platform/db/pool.js';
import { isRowFault, type AuditSpool } from './spool.js';

/**
 * Group commit for the audit rows of calls that change nothing (reads,
 * refusals, 401s). Rows appended in the same turn of the event loop share one
 * INSERT; while batches are being written, new rows gather into the next one,
 * so the batch size grows with the load instead of a timer setting it. Each
 * caller's promise settles when its row is durable, in PostgreSQL or, when
 * PostgreSQL is down, in the local spool (then it resolves to 'spool').
 */
const MAX_BATCH = 500; // keeps one statement's jsonb parameter well under a megabyte
// A few batches in flight overlap their round trips without taking the pool from the requests.
const MAX_IN_FLIGHT = 3;

export interface AuditWriter {
  append(row: AuditRecord): Promise<'db' | 'spool'>;
  close(): Promise<void>;
}

interface Pending {
  row: AuditRecord;
  done: (where: 'db' | 'spool') => void;
  fail: (e: unknown) => void;
}

/** The row with every string field stripped of what PostgreSQL cannot store (U+0000, unpaired surrogates). */
export function storableRow(row: AuditRecord): AuditRecord {
  // Node 20 has String.prototype.toWellFormed (ES2024); the project's lib setting predates it.
  const clean = (value: unknown) =>
    typeof value === 'string' ? (value.replaceAll('\u0000', '') as string & { toWellFormed(): string }).toWellFormed() : value;
  // fromEntries forgets the keys' types; the same keys come out as went in, each value cleaned.
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, clean(value)])) as unknown as AuditRecord;
}

export function createAuditWriter(deps: { db: Db; spool: AuditSpool; onError?: (e: unknown) => void }): AuditWriter {
  const pending: Pending[] = [];
  let inFlight = 0;
  let scheduled = false;
  let idle: (() => void)[] = [];

  async function write(batch: Pending[]): Promise<void> {
    const rows = batch.map((p) => p.row);
    try {
      await appendAuditBatch(deps.db, rows);
      for (const p of batch) p.done('db');
    } catch (error) {
      deps.onError?.(error);
      // A row PostgreSQL refuses for its content fails the whole statement: write each row
      // on its own, so one request's row can never fail another's.
      if (isRowFault(error) && batch.length > 1) await Promise.all(batch.map((p) => write([p])));
      else if (isRowFault(error)) await writeAlone(batch[0]!);
      else await toSpool(batch);
    }
  }

  /** A row refused for its content: stored with its strings made storable, else kept in the spool. */
  async function writeAlone(p: Pending): Promise<void> {
    try {
      await appendAuditBatch(deps.db, [storableRow(p.row)]);
      p.done('db');
    } catch (error) {
      deps.onError?.(error);
      await toSpool([p]);
    }
  }

  async function toSpool(batch: Pending[]): Promise<void> {
    try {
      await deps.spool.write(batch.map((p) => p.row));
      for (const p of batch) p.done('spool');
    } catch (spoolError) {
      for (const p of batch) p.fail(spoolError);
    }
  }

  function pump(): void {
    while (pending.length > 0 && inFlight < MAX_IN_FLIGHT) {
      const batch = pending.splice(0, MAX_BATCH);
      inFlight += 1;
      void write(batch).finally(() => {
        inFlight -= 1;
        pump();
      });
    }
    if (pending.length === 0 && inFlight === 0) {
      const waiting = idle;
      idle = [];
      for (const w of waiting) w();
    }
  }

  return {
    append(row) {
      return new Promise((done, fail) => {
        pending.push({ row, done, fail });
        if (scheduled) return;
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          pump();
        });
      });
    },
    async close() {
      if (pending.length === 0 && inFlight === 0) return;
      await new Promise<void>((resolve) => {
        idle.push(resolve);
        pump();
      });
    },
  };
}
