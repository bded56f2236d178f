import { mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { AuditRecord } from '../db/audit.js';

/**
 * When Postgres cannot take an audit row, the row is appended to a local file
 * and fsynced before the caller hears back (a 502 with that audit id), then
 * replayed into Postgres once it answers again. Replay is idempotent: the
 * append function ignores audit ids it already holds.
 */
export interface AuditSpool {
  write(rows: readonly AuditRecord[]): Promise<void>;
  replay(append: (rows: AuditRecord[]) => Promise<void>): Promise<number>;
}

export function createAuditSpool(dir: string): AuditSpool {
  const current = join(dir, 'audit-pending.jsonl');
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
        const rows = (await readFile(path, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as AuditRecord);
        await append(rows);
        await unlink(path);
        replayed += rows.length;
      }
      return replayed;
    },
  };
}
