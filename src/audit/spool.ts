import { appendFile, mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { AuditRecord } from './store.js';

/**
 * When Postgres cannot take an audit row, the row is appended to a local file
 * and fsynced before the caller hears back (a 502 with that audit id), then
 * replayed into Postgres once it answers again. Replay is idempotent: the
 * append function ignores audit ids it already holds.
 *
 * A spooled row PostgreSQL refuses for its content (or a line that is no
 * longer JSON) must not stop every later row from being written: replay
 * writes such a file row by row, and a row refused on its own is moved to
 * `audit-quarantine.jsonl`, kept, counted and reported by /healthz, never
 * dropped. Only a failure that is not the row's fault (PostgreSQL down) stops
 * a replay, to be retried later.
 */
export interface AuditSpool {
  write(rows: readonly AuditRecord[]): Promise<void>;
  replay(append: (rows: AuditRecord[]) => Promise<void>): Promise<number>;
  /** Rows (or lines) kept aside because PostgreSQL refused them on their own. */
  quarantined(): Promise<number>;
}

const QUARANTINE = 'audit-quarantine.jsonl';

/** SQLSTATE class 22 (data exception): the row, not the connection, is at fault. */
export function isRowFault(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && code.startsWith('22');
}

export function createAuditSpool(dir: string): AuditSpool {
  const current = join(dir, 'audit-pending.jsonl');
  const quarantine = join(dir, QUARANTINE);

  async function keepAside(lines: readonly string[]): Promise<void> {
    if (lines.length === 0) return;
    await appendFile(quarantine, lines.map((l) => `${l}\n`).join(''), { mode: 0o600 });
  }

  /** One spooled file: all at once, or row by row when a row is at fault. Returns the rows written. */
  async function replayFile(path: string, append: (rows: AuditRecord[]) => Promise<void>): Promise<number> {
    const lines = (await readFile(path, 'utf8')).split('\n').filter(Boolean);
    const rows: { line: string; row: AuditRecord }[] = [];
    const unreadable: string[] = [];
    for (const line of lines) {
      try {
        rows.push({ line, row: JSON.parse(line) as AuditRecord });
      } catch {
        unreadable.push(line);
      }
    }
    try {
      await append(rows.map((r) => r.row));
      await keepAside(unreadable);
      return rows.length;
    } catch (error) {
      if (!isRowFault(error)) throw error;
    }
    let written = 0;
    const refused: string[] = [...unreadable];
    for (const { line, row } of rows) {
      try {
        await append([row]);
        written += 1;
      } catch (error) {
        if (!isRowFault(error)) throw error;
        refused.push(line);
      }
    }
    await keepAside(refused);
    return written;
  }

  return {
    async write(rows) {
      await mkdir(dir, { recursive: true });
      const fh = await open(current, 'a', 0o600);
      try {
        await fh.appendFile(rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
        await fh.sync();
      } finally {
        await fh.close();
      }
    },
    async replay(append) {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch {
        return 0;
      }
      if (names.includes('audit-pending.jsonl')) {
        await rename(current, join(dir, `audit-replay-${Date.now()}.jsonl`));
        names = await readdir(dir);
      }
      let replayed = 0;
      for (const name of names.filter((n) => n.startsWith('audit-replay-')).sort()) {
        const path = join(dir, name);
        replayed += await replayFile(path, append);
        await unlink(path);
      }
      return replayed;
    },
    async quarantined() {
      try {
        return (await readFile(quarantine, 'utf8')).split('\n').filter(Boolean).length;
      } catch {
        return 0;
      }
    },
  };
}
