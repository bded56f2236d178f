import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './redisServers.js';

/**
 * Debian's PgBouncer (1.18: no prepared statements across transactions) in
 * transaction pooling, in front of the PostgreSQL on 127.0.0.1:5432,
 * started by a test or a bench on a free port and stopped by `stop()`. Few server
 * connections per database and user, so client connections share them and
 * anything that leaned on a session's state would show.
 */
export interface PgBouncer {
  port: number;
  pid: number;
  /** `url` with its host and port replaced by the bouncer's. */
  through(url: string): string;
  /** SHOW STATS on the admin console: transactions carried per database. */
  transactions(database: string): Promise<number>;
  stop(): Promise<void>;
}

const BIN = '/usr/sbin/pgbouncer';

export async function startPgBouncer(opts: { poolSize?: number } = {}): Promise<PgBouncer> {
  const dir = mkdtempSync(join(tmpdir(), 'tas-pgbouncer-'));
  // PgBouncer will not run as root; it drops to the postgres user, which must read its files (it logs to stderr).
  chmodSync(dir, 0o755);
  const port = await freePort();
  writeFileSync(join(dir, 'userlist.txt'), ['tas_app', 'tas_ops', 'postgres'].map((u) => `"${u}" ""`).join('\n') + '\n');
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      // Every database (each test file clones its own) on the test server.
      '* = host=127.0.0.1 port=5432',
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'admin_users = postgres',
      'pool_mode = transaction',
      `default_pool_size = ${opts.poolSize ?? 3}`,
      'max_client_conn = 500',
      // node-postgres sends none of these unless asked; the service's pool asks for none behind a pooler (TAS_DB_POOLER).
      'ignore_startup_parameters = extra_float_digits',
      '',
    ].join('\n'),
  );
  const args = process.getuid?.() === 0 ? ['-u', 'postgres', join(dir, 'pgbouncer.ini')] : [join(dir, 'pgbouncer.ini')];
  const child: ChildProcess = spawn(BIN, args, { stdio: 'ignore' });
  child.on('error', () => undefined);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const admin = () => new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'pgbouncer' });
  try {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const c = admin();
      try {
        await c.connect();
        await c.query('SHOW VERSION');
        break;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((r) => setTimeout(r, 100));
      } finally {
        await c.end().catch(() => undefined);
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    port,
    pid: child.pid!,
    through(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    async transactions(database) {
      const c = admin();
      await c.connect();
      try {
        const { rows } = await c.query<{ database: string; total_xact_count: string | number }>('SHOW STATS');
        return rows.filter((r) => r.database === database).reduce((n, r) => n + Number(r.total_xact_count), 0);
      } finally {
        await c.end();
      }
    },
    stop,
  };
}
