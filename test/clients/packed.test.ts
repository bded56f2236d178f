import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';

/**
 * The published client (issue 38): `npm pack` builds clients/typescript to
 * JavaScript with declarations (its prepack), the tarball is installed into a
 * project outside the repository, and that project type-checks a call (a
 * wrong body is a type error) and makes it against a live service.
 */
const run = promisify(execFile);
const CLIENT_DIR = fileURLToPath(new URL('../../clients/typescript/', import.meta.url));
const TSC = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));

let ts: TestService;
let work: string;
let tarball: string;

beforeAll(async () => {
  ts = await startTestService();
  work = mkdtempSync(join(tmpdir(), 'tas-client-consumer-'));
});

afterAll(async () => {
  await ts?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed client', () => {
  it('packs built JavaScript and declarations, no TypeScript source', async () => {
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: CLIENT_DIR, maxBuffer: 16 * 1024 * 1024 });
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
    tarball = join(work, packed!.filename);
    const files = packed!.files.map((f) => f.path).sort();
    expect(files).toEqual(expect.arrayContaining(['README.md', 'dist/index.d.ts', 'dist/index.js', 'dist/schema.d.ts', 'package.json']));
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    // Its README names the version it is and the API document version it is typed from, both current.
    const readme = readFileSync(join(CLIENT_DIR, 'README.md'), 'utf8');
    const own = JSON.parse(readFileSync(join(CLIENT_DIR, 'package.json'), 'utf8')) as { version: string };
    const service = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const document = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8')) as { info: { version: string } };
    expect(own.version).toBe(service.version);
    expect(readme).toContain(`Version ${own.version} is typed from the service's OpenAPI document version\n\`${document.info.version}\``);
  }, 120_000);

  it('installs from the tarball outside the repository, type-checks a call and makes it against a live service', async () => {
    const project = join(work, 'consumer');
    rmSync(project, { recursive: true, force: true });
    await run('mkdir', ['-p', project]);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
    // The tarball's dependencies come from the npm cache when it holds them (offline), else the registry.
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], {
      cwd: project,
      maxBuffer: 16 * 1024 * 1024,
    });
    expect(readdirSync(join(project, 'node_modules', '@tas', 'client', 'dist')).sort()).toEqual(['index.d.ts', 'index.js', 'schema.d.ts']);

    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM'],
          types: [],
          strict: true,
          outDir: 'out',
        },
        include: ['main.ts'],
      }),
    );
    writeFileSync(
      join(project, 'main.ts'),
      `
import { createTasClient, type Schemas } from '@tas/client';

const client = createTasClient({ baseUrl: process.env.TAS_URL!, key: process.env.TAS_KEY! });
const { data, error } = await client.POST('/v1/inquiries', {
  body: {
    subject: { presentations: [{ type: 'EMAIL', value: 'billing@paypa1-login.com' }] },
    intent: 'counterparty_check',
    purpose: 'fraud_prevention',
    stake: { kind: 'payment', amount: 250, currency: 'EUR' },
  },
});
if (error) throw new Error(JSON.stringify(error));
const score: number = data.assessment.score;
const status: Schemas['InquiryResponse']['status'] = data.status;
// Never called: a body without its subject must be a type error, so the contract's types are really there.
// @ts-expect-error
export const untyped = () => client.POST('/v1/inquiries', { body: { intent: 'counterparty_check', purpose: 'fraud_prevention', stake: { kind: 'account' } } });
console.log(JSON.stringify({ score, status }));
declare const process: { env: Record<string, string | undefined> };
`,
    );
    // The root's TypeScript, run in the consumer project: it sees only the installed package.
    await run(process.execPath, [TSC, '-p', project], { cwd: project });
    const { stdout } = await run(process.execPath, [join(project, 'out', 'main.js')], {
      cwd: project,
      env: { PATH: process.env.PATH ?? '', TAS_URL: ts.base, TAS_KEY: ts.tenant.keys.test },
    });
    const answer = JSON.parse(stdout) as { score: number; status: string };
    expect(answer.score).toBeGreaterThanOrEqual(0);
    expect(answer.score).toBeLessThanOrEqual(100);
    expect(['accepted', 'reasoning', 'preliminary', 'concluded']).toContain(answer.status);
  }, 180_000);
});
