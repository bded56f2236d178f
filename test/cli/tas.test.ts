import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { adminQuery } from '../support/database.js';

/** The `tas` command as an operator runs it: a real child process against real services. */
const TAS = fileURLToPath(new URL('../../bin/tas.js', import.meta.url));
const dbName = `tas_cli_${randomBytes(5).toString('hex')}`;
const DATABASE_URL = `postgres://postgres@127.0.0.1:5432/${dbName}`;

function tas(
  args: string[],
  env: Record<string, string> = {},
  stdin?: string,
): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TAS, ...args], {
      env: { ...process.env, DATABASE_URL, LOG_LEVEL: 'warn', NODE_ENV: 'test', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    if (stdin !== undefined) child.stdin.end(stdin);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr, ms: Date.now() - started }));
  });
}

afterAll(async () => {
  await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
});

describe('tas', () => {
  it('migrate creates the database when missing, then is a no-op', async () => {
    const first = await tas(['migrate']);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('applied 000001');
    const second = await tas(['migrate']);
    expect(second.stdout).toContain('up to date');
  });

  it('tenant create --json prints the tenant and four keys once; a second create with that name is refused', async () => {
    const r = await tas(['tenant', 'create', '--name', 'cli-tenant', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.tenant_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(out.keys).sort()).toEqual(['live', 'live_admin', 'test', 'test_admin']);
    expect(out.keys.live).toMatch(/^tas_live_/);
    expect(out.keys.test_admin).toMatch(/^tas_test_/);
    const again = await tas(['tenant', 'create', '--name', 'cli-tenant']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already exists');

    const key = await tas(['key', 'mint', '--tenant', out.tenant_id, '--scopes', 'inquiries,findings', '--test', '--json']);
    expect(key.code).toBe(0);
    expect(JSON.parse(key.stdout)).toMatchObject({ mode: 'test', scopes: ['inquiries', 'findings'] });
    const bad = await tas(['key', 'mint', '--tenant', out.tenant_id, '--scopes', 'everything']);
    expect(bad.code).toBe(2);
  });

  it('score reproduces a worked example of the methodology from stdin', async () => {
    const input = JSON.stringify({
      methodology_version: 'trust-method/1',
      as_of: '2025-01-01T00:00:00Z',
      evidence: Array.from({ length: 5 }, () => ({
        provenance_class: 'third_party',
        trust_band: 'high',
        observed_at: '2025-01-01T00:00:00Z',
        disposition: 'supports',
      })),
      absences: 2,
    });
    const r = await tas(['score', '-'], {}, input);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ methodology_version: 'trust-method/1', score: 86, low: 56, high: 100 });
  });

  it('serve fails within seconds, saying what to run, when Postgres does not answer', async () => {
    const r = await tas(['serve'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/tas', PORT: '0' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('PostgreSQL is not answering');
    expect(r.stderr).toContain('DATABASE_URL');
    expect(r.ms).toBeLessThan(10_000);
  });

  it('serve fails within seconds when Redis does not answer', async () => {
    const r = await tas(['serve'], { REDIS_URL: 'redis://127.0.0.1:1', PORT: '0' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Redis is not answering');
    expect(r.ms).toBeLessThan(10_000);
  });

  it('an unknown command prints usage and exits 2', async () => {
    const r = await tas(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('tas serve');
  });
});

describe('tas calibration', () => {
  it('prints nothing to calibrate on a database without outcomes, and refuses a bad mode', async () => {
    const r = await tas(['calibration']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('no scored outcomes yet');
    expect((await tas(['calibration', '--mode', 'prod'])).code).toBe(2);
  });
});

describe('tas as an operator meets it (issue 18)', () => {
  it('given a --tenant that is not a uuid, then it says which argument is wrong and exits 2, without a stack trace', async () => {
    const r = await tas(['calibration', '--tenant', 'acme']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--tenant must be a tenant id (uuid)');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('given --svg naming a directory that does not exist yet, then it is made and the run succeeds', async () => {
    const dir = `/tmp/tas-cli-${randomBytes(4).toString('hex')}/plots`;
    const r = await tas(['calibration', '--svg', dir]);
    expect([r.code, r.stderr.includes('no scored outcomes yet')]).toEqual([0, true]);
    const { stat } = await import('node:fs/promises');
    expect((await stat(dir)).isDirectory()).toBe(true);
  });

  it.each(['serve', 'worker', 'migrate', 'tenant', 'key', 'score', 'audit', 'calibration', 'export'])(
    'tas %s --help prints its usage with an example and exits 0',
    async (command) => {
      const r = await tas([command, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`tas ${command}`);
      expect(r.stdout).toContain('example:');
    },
  );

  it.each([
    ['export', 'verify'],
    ['export', 'rotate-key'],
    ['tenant', 'create'],
    ['key', 'mint'],
    ['audit', 'verify'],
  ])('tas %s %s --help prints the usage and exits 0, never reading --help as an argument', async (command, sub) => {
    const r = await tas([command, sub, '--help']);
    expect([r.code, r.stdout.includes('example:')]).toEqual([0, true]);
    expect(r.stderr).toBe('');
  });
});
