import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';

/**
 * The README's quick start (examples/quickstart.ts) as a newcomer runs it: it
 * finds the service by the service's own settings (PORT, or TAS_URL), and
 * when nothing answers it says so in one line, exit code 1, no stack trace.
 */
const QUICKSTART = fileURLToPath(new URL('../../examples/quickstart.ts', import.meta.url));
const run = promisify(execFile);

let ts: TestService;
beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
});
afterAll(async () => ts?.stop());

/** A port nothing listens on: one the system just handed out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function quickstart(env: Record<string, string>) {
  // Only what a newcomer's shell would hold: no TAS_URL or PORT of the test runner's.
  return run(process.execPath, ['--import', 'tsx', QUICKSTART], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
  });
}

describe('examples/quickstart.ts', () => {
  it("reaches a service on a port other than the default through PORT, the service's own setting", async () => {
    const port = new URL(ts.base).port;
    expect(port).not.toBe('8080');
    const { stdout } = await quickstart({ PORT: port, TAS_KEY: ts.tenant.keys.test });
    expect(stdout).toMatch(/^score \d+ \[\d+-\d+\], label none, status \w+/);
  }, 30_000);

  it('says in one line what it needs when nothing answers, exit 1, no stack trace', async () => {
    const port = await closedPort();
    const failure = (await quickstart({ PORT: String(port), TAS_KEY: 'tas_test_x' }).catch((e: unknown) => e)) as {
      code?: number;
      stdout: string;
      stderr: string;
    };
    expect(failure.code).toBe(1);
    expect(failure.stderr.trim()).toBe(
      `quickstart: cannot connect to the service at http://127.0.0.1:${port} (ECONNREFUSED): start it with npm start, or set TAS_URL (or PORT) to where it listens`,
    );
    expect(failure.stderr).not.toMatch(/\n\s+at /);
  }, 30_000);

  it('says which key it needs when none is given', async () => {
    const failure = (await quickstart({ TAS_URL: ts.base }).catch((e: unknown) => e)) as { code?: number; stderr: string };
    expect(failure.code).toBe(1);
    expect(failure.stderr.trim()).toBe('quickstart: set TAS_KEY to a tenant key (npm start prints a demo test key)');
  }, 30_000);
});
