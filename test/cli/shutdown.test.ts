import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { adminQuery } from '../support/database.js';
import { dropRedisKeys } from '../support/service.js';
import { eventually } from '../support/wait.js';

/**
 * `tas serve` stopped as a process manager stops it (SIGTERM), read from its
 * log as an operator reads it: one line when it stops taking work, one when
 * everything in flight has ended, in that order, and exit code 0.
 */
const TAS = fileURLToPath(new URL('../../bin/tas.js', import.meta.url));
const dbName = `tas_shutdown_${randomBytes(5).toString('hex')}`;
const prefix = `tasstop:${randomBytes(4).toString('hex')}`;

afterAll(async () => {
  await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await dropRedisKeys('redis://127.0.0.1:6379', prefix);
});

describe('tas serve on SIGTERM', () => {
  it('logs when it stops taking work and when it has drained, then exits 0', async () => {
    const child = spawn(process.execPath, [TAS, 'serve'], {
      env: {
        ...process.env,
        DATABASE_OWNER_URL: `postgres://postgres@127.0.0.1:5432/${dbName}`,
        DATABASE_URL: `postgres://tas_app@127.0.0.1:5432/${dbName}`,
        NODE_ENV: 'development',
        LOG_LEVEL: 'info',
        PORT: '0',
        HOST: '127.0.0.1',
        TAS_REDIS_PREFIX: prefix,
        TAS_SPOOL_DIR: `/tmp/tas-spool-${randomBytes(4).toString('hex')}`,
        TAS_DNS_SERVERS: 'off',
        TAS_RDAP_BASE_URL: 'off',
        TAS_WARM_STATEMENTS: 'false',
      },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await eventually(() => /tas listening on http:\/\/127\.0\.0\.1:\d+/.test(out), { timeout: 60_000, interval: 100 });

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // stdout is no terminal here, so the log is one JSON object per line.
    const records = out
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; reason?: string; ms?: number });
    const stopping = records.findIndex((r) => r.msg.startsWith('stopping: no new work taken'));
    const drained = records.findIndex((r) => r.msg.startsWith('drained: every call, job and audit batch in flight has finished'));
    expect(stopping, out).toBeGreaterThanOrEqual(0);
    expect(records[stopping]!.reason).toBe('SIGTERM');
    expect(drained, out).toBeGreaterThan(stopping);
    expect(records[drained]!.ms).toBeGreaterThanOrEqual(0);
  }, 90_000);
});
