import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/platform/config.js';
import { startDnsFixture, type DnsFixture } from '../checks/dnsFixture.js';
import { dropRedisKeys, startTestService, type TestService } from '../support/service.js';

/**
 * `tas doctor` as an operator runs it, a child process with the deployment's
 * settings: it passes on a development setup (the service's own login, its
 * prefix, a resolver and an RDAP service that answer) and names each
 * misconfiguration of a broken one, with exit code 1.
 */
const TAS = fileURLToPath(new URL('../../bin/tas.js', import.meta.url));

let ts: TestService;
let honestDns: DnsFixture;
let silentDns: DnsFixture;
let rdap: Server;
let rdapUrl: string;
const foreignPrefix = `tasdoctor:${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
  honestDns = await startDnsFixture({ 'example.com': { A: ['192.0.2.10'] } });
  silentDns = await startDnsFixture({}, { silent: true });
  rdap = createServer((req, res) => res.writeHead(req.url === '/help' ? 200 : 404, { 'content-type': 'application/rdap+json' }).end('{}'));
  await new Promise<void>((resolve) => rdap.listen(0, '127.0.0.1', resolve));
  rdapUrl = `http://127.0.0.1:${(rdap.address() as AddressInfo).port}`;
  // A prefix some other database holds.
  const redis = new Redis(ts.config.REDIS_URL);
  await redis.set(`${foreignPrefix}:owner`, 'postgres:7000000000000000001/elsewhere/16384');
  redis.disconnect();
});

afterAll(async () => {
  await ts?.stop();
  await honestDns?.close();
  await silentDns?.close();
  rdap?.close();
  await dropRedisKeys(ts.config.REDIS_URL, foreignPrefix);
});

function doctor(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // Only what a deployment would set: nothing of the test runner's environment leaks in.
    const child = spawn(process.execPath, [TAS, 'doctor'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** The line a check printed (its verdict first). */
function line(stdout: string, check: string): string {
  return stdout.split('\n').find((l) => new RegExp(`^\\s+\\S+\\s+${check}\\s`).test(l)) ?? `(no line for ${check})`;
}

function development(): Record<string, string> {
  return {
    NODE_ENV: 'development',
    DATABASE_URL: ts.config.DATABASE_URL,
    REDIS_URL: ts.config.REDIS_URL,
    TAS_REDIS_PREFIX: ts.config.TAS_REDIS_PREFIX,
    TAS_DNS_SERVERS: honestDns.server,
    TAS_DNS_CANARY: 'example.com',
    TAS_RDAP_BASE_URL: rdapUrl,
    TAS_SPOOL_DIR: `/tmp/tas-doctor-spool-${randomBytes(4).toString('hex')}`,
  };
}

describe('tas doctor', () => {
  it('passes on the development setup: only the development pepper is a warning', async () => {
    const r = await doctor(development());
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(line(r.stdout, 'pepper')).toMatch(/^\s+warn\s+pepper\s.*development pepper/);
    expect(line(r.stdout, 'service login')).toMatch(/^\s+ok\s+service login\s.*tas_app/);
    expect(line(r.stdout, 'redis prefix')).toMatch(/^\s+ok\s+redis prefix\s.*belongs to this database/);
    expect(line(r.stdout, 'resolver')).toMatch(/^\s+ok\s/);
    expect(line(r.stdout, 'registry')).toMatch(/^\s+ok\s/);
    expect(line(r.stdout, 'spool')).toMatch(/^\s+ok\s+spool\s.*MiB free/);
    expect(r.stdout).toContain('no failure');
  });

  it('passes on the README set-up in a plain shell: NODE_ENV unset is development, as under npm start', async () => {
    const { NODE_ENV: _set, ...plain } = development();
    const r = await doctor(plain);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^tas doctor \(NODE_ENV=development, the default: warnings would be failures in production\)/);
    expect(line(r.stdout, 'pepper')).toMatch(/^\s+warn\s+pepper\s.*TAS_KEY_PEPPER is not set/);
    expect(r.stdout).toContain('no failure');
  });

  it('passes in production with a secret pepper, and an unbound prefix is one the first start will bind', async () => {
    const r = await doctor({
      ...development(),
      NODE_ENV: 'production',
      TAS_KEY_PEPPER: randomBytes(24).toString('hex'),
      TAS_REDIS_PREFIX: `tasdoctor:${randomBytes(4).toString('hex')}`,
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(line(r.stdout, 'pepper')).toMatch(/^\s+ok\s/);
    expect(line(r.stdout, 'redis prefix')).toMatch(/^\s+ok\s.*not bound yet/);
    expect(r.stdout).not.toMatch(/^\s+(warn|FAIL)\s/m);
  });

  it('names each misconfiguration of a broken production deployment and exits 1', async () => {
    const developmentPepper = loadConfig({ NODE_ENV: 'development' }).keyPepper;
    const r = await doctor({
      ...development(),
      NODE_ENV: 'production',
      TAS_KEY_PEPPER: developmentPepper,
      DATABASE_URL: ts.dbUrl, // the owner's superuser login
      TAS_REDIS_PREFIX: foreignPrefix,
      TAS_DNS_SERVERS: silentDns.server,
      TAS_RDAP_BASE_URL: 'http://127.0.0.1:9', // discard: nothing listens
      TAS_SPOOL_DIR: '/etc/hostname/spool',
    });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(line(r.stdout, 'pepper')).toMatch(/^\s+FAIL\s+pepper\s.*public development pepper/);
    expect(line(r.stdout, 'service login')).toMatch(/^\s+FAIL\s+service login\s.*postgres.*is a superuser/);
    expect(line(r.stdout, 'redis prefix')).toMatch(
      new RegExp(`^\\s+FAIL\\s+redis prefix\\s.*'${foreignPrefix}' belongs to another database`),
    );
    expect(line(r.stdout, 'resolver')).toMatch(/^\s+FAIL\s+resolver\s.*no answer/);
    expect(line(r.stdout, 'registry')).toMatch(/^\s+FAIL\s+registry\s.*does not answer/);
    expect(line(r.stdout, 'spool')).toMatch(/^\s+FAIL\s+spool\s.*not a directory/);
    // Every failure says what to change.
    for (const setting of ['TAS_KEY_PEPPER', 'DATABASE_URL', 'TAS_REDIS_PREFIX', 'TAS_DNS_SERVERS', 'TAS_RDAP_BASE_URL', 'TAS_SPOOL_DIR']) {
      expect(r.stdout).toMatch(new RegExp(`fix: .*${setting}`));
    }
    expect(r.stdout).toContain('6 failure(s)');
  });

  it('a login that can become the cross-tenant role is named as one', async () => {
    const ops = new URL(ts.config.DATABASE_URL);
    ops.username = 'tas_ops';
    const r = await doctor({ ...development(), DATABASE_URL: ops.toString() });
    expect(r.code).toBe(1);
    expect(line(r.stdout, 'service login')).toMatch(/^\s+FAIL\s+service login\s.*tas_ops.*can become the cross-tenant role tas_system/);
  });

  it('an unset pepper in production is a failure, and the rest is still diagnosed', async () => {
    const r = await doctor({ ...development(), NODE_ENV: 'production' });
    expect(r.code).toBe(1);
    expect(line(r.stdout, 'pepper')).toMatch(/^\s+FAIL\s+pepper\s.*not set/);
    expect(line(r.stdout, 'service login')).toMatch(/^\s+ok\s/);
  });
});
