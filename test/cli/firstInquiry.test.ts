import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { adminQuery } from '../support/database.js';
import { eventually } from '../support/wait.js';

/**
 * A newcomer's first minutes (issue 38), as `npm start` runs them: `tas serve`
 * in a child process on a database of its own, read from its standard output
 * like a person would, and the first inquiry it prints run exactly as printed
 * by a shell. Once on an empty database (the demo tenant's keys), once again
 * on the same database (a fresh test key of the demo tenant).
 */
const TAS = fileURLToPath(new URL('../../bin/tas.js', import.meta.url));
const dbName = `tas_first_${randomBytes(5).toString('hex')}`;
const run = promisify(execFile);

interface Started {
  child: ChildProcess;
  stdout: () => string;
  base: string;
}

async function serve(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, [TAS, 'serve'], {
    env: {
      ...process.env,
      DATABASE_OWNER_URL: `postgres://postgres@127.0.0.1:5432/${dbName}`,
      DATABASE_URL: `postgres://tas_app@127.0.0.1:5432/${dbName}`,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      PORT: '0',
      HOST: '127.0.0.1',
      TAS_REDIS_PREFIX: `tasfirst:${randomBytes(4).toString('hex')}`,
      TAS_SPOOL_DIR: `/tmp/tas-spool-${randomBytes(4).toString('hex')}`,
      TAS_DNS_SERVERS: 'off',
      TAS_RDAP_BASE_URL: 'off',
      ...env,
    },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  // The banner's last block is written in one call, after the listen line.
  const banner = () => /A first inquiry[^\n]*\n[\s\S]*?-d '[^']*'\n/.test(out);
  await eventually(() => banner() || child.exitCode !== null, { timeout: 60_000, interval: 100 }).catch(() => false);
  if (!banner()) throw new Error(`tas serve did not print its banner:\n${out}\n${err}`);
  const port = /tas listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)![1];
  return { child, stdout: () => out, base: `http://127.0.0.1:${port}` };
}

async function stop(s: Started | undefined): Promise<void> {
  if (!s || s.child.exitCode !== null) return;
  const exited = new Promise((resolve) => s.child.once('exit', resolve));
  s.child.kill('SIGTERM');
  await exited;
}

/** The printed curl, from `curl` to its closing quote, as a shell would read it. */
function printedCurl(out: string): string {
  const m = /(curl -s [^\n]*\\\n(?:[^\n]*\\\n)*[^\n]*-d '[^']*')/.exec(out);
  if (!m) throw new Error(`no curl in:\n${out}`);
  return m[1]!;
}

let first: Started | undefined;
let second: Started | undefined;
let secondKey = '';
afterAll(async () => {
  await stop(first);
  await stop(second);
  await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
});

describe('the first inquiry, as a newcomer meets it', () => {
  it('npm start installs nothing: its pre-script only makes sure PostgreSQL and Redis answer', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.prestart).toBe('scripts/ensure-services.sh');
    // The development start names its environment, so the service takes the development pepper (it refuses one elsewhere).
    expect(pkg.scripts.start).toBe('NODE_ENV=${NODE_ENV:-development} node bin/tas.js serve');
  });

  it('on an empty database: the demo keys, the pages, a first inquiry that works as printed; OCR without any system program', async () => {
    // No tesseract program on this PATH: OCR comes from npm (tesseract.js and its English model), so the start neither fails, installs anything nor warns.
    first = await serve({ PATH: '/nonexistent' });
    const out = first.stdout();
    expect(out).toContain("tenant 'demo' created");
    for (const path of ['/docs', '/console', '/examples/session', '/healthz']) expect(out).toContain(`${first.base}${path}`);
    expect(out).not.toContain('Text in images will not be extracted');
    expect(out).not.toContain('apt-get');

    const curl = printedCurl(out);
    expect(curl).toMatch(/Bearer tas_test_/);
    const { stdout } = await run('sh', ['-c', curl]);
    const answer = JSON.parse(stdout);
    expect(answer).toMatchObject({
      status: 'concluded',
      assessment: { score: expect.any(Number), low: expect.any(Number), high: expect.any(Number) },
    });
    expect(answer.findings.findings.length).toBeGreaterThan(0);

    const health = await (await fetch(`${first.base}/healthz`)).json();
    expect(health).toMatchObject({ ocr: 'available', database: 'reachable' });
  }, 90_000);

  it('on the same database again: a fresh test key of the demo tenant, which expires, and its curl works too', async () => {
    await stop(first);
    second = await serve({});
    const out = second.stdout();
    expect(out).not.toContain("tenant 'demo' created");
    expect(out).toContain('this key expires in 24 h');
    const { stdout } = await run('sh', ['-c', printedCurl(out)]);
    expect(JSON.parse(stdout).status).toBe('concluded');
    secondKey = /Bearer (tas_test_[^'"\s]+)/.exec(out)![1]!;
  }, 90_000);

  it.each([
    [
      'an artifact type',
      { subject: { presentations: [{ type: 'email', value: 'jane@example.org' }] } },
      'I15',
      'GET /v1/registry/artifact-types',
    ],
    ['a purpose', { purpose: 'curiosity_xyz' }, 'I13', 'GET /v1/registry/purposes'],
    ['an intent', { intent: 'whim_xyz' }, 'I14', 'GET /v1/registry/intents'],
  ])('a refusal of %s not registered names where the registered ones are listed, never the input', async (_what, change, rule, listing) => {
    const body = {
      subject: { presentations: [{ type: 'EMAIL', value: 'jane@example.org' }] },
      intent: 'counterparty_check',
      purpose: 'fraud_prevention',
      stake: { kind: 'other' },
      ...change,
    };
    const res = await fetch(`${second!.base}/v1/inquiries`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secondKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(422);
    const text = await res.text();
    const item = JSON.parse(text).detail.find((d: { type: string }) => d.type === rule);
    expect(item.msg).toContain(listing);
    for (const input of ['"email"', 'curiosity_xyz', 'whim_xyz']) expect(text).not.toContain(input);
  });

  it('/ is an index of the pages and the registry listings, in HTML or JSON; /favicon.ico answers; an unknown path under /v1 is still a problem document', async () => {
    const page = await fetch(`${second!.base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    for (const href of [
      '/docs',
      '/console',
      '/examples/session',
      '/healthz',
      '/v1/registry/artifact-types',
      '/v1/registry/intents',
      '/v1/registry/purposes',
    ]) {
      expect(html).toContain(`href="${href}"`);
    }
    expect(html).toContain('curl -s');

    const json = await fetch(`${second!.base}/`, { headers: { accept: 'application/json' } });
    expect(((await json.json()) as { links: unknown }).links).toMatchObject({
      docs: '/docs',
      console: '/console',
      session_example: '/examples/session',
      purposes: '/v1/registry/purposes',
    });

    const icon = await fetch(`${second!.base}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');

    const unknown = await fetch(`${second!.base}/v1/no-such-thing`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/problem+json');
  });
});
