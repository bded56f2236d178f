import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExtractionFailure } from '../../src/material/extractors/types.js';
import { DEFAULT_PARSER_LIMITS, extractInParser, probeParser } from '../../src/material/parserProcess.js';

/**
 * The parser process (issue 40): started the way the material worker starts
 * it, with this test process holding the service's secrets in its own
 * environment, as a deployed worker does.
 */
const SECRETS = {
  DATABASE_URL: 'postgres://tas_app:db-password-in-env@127.0.0.1:5432/tas',
  DATABASE_OWNER_URL: 'postgres://owner:owner-password@127.0.0.1:5432/tas',
  REDIS_URL: 'redis://:redis-password@127.0.0.1:6379',
  TAS_KEY_PEPPER: 'pepper-that-must-never-reach-a-parser-0123456789',
  TAS_KEY_PEPPER_PREVIOUS: 'previous-pepper-that-must-never-reach-a-parser',
};
const saved: Record<string, string | undefined> = {};
beforeAll(() => {
  for (const [k, v] of Object.entries(SECRETS)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
});
afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe('the parser process', () => {
  it('carries none of the service environment: its /proc environ and its own process.env hold PATH only', async () => {
    let environ = '';
    const probe = await probeParser(DEFAULT_PARSER_LIMITS, {
      // Read by the kernel's account of the process, at once: what it was started with, whatever it says of itself.
      // Read while the shell execs node, the file is empty for an instant (PATH is always passed): read again then.
      onSpawn: (pid) => {
        for (let i = 0; i < 1000 && environ === ''; i += 1) environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
      },
    });
    const started = environ.split('\u0000').filter((entry) => entry !== '');
    // The shell that sets the limits adds PWD when it becomes node; nothing else.
    expect(started.map((entry) => entry.split('=')[0]).filter((k) => k !== 'PWD')).toEqual(['PATH']);
    for (const secret of Object.values(SECRETS)) expect(environ).not.toContain(secret);
    expect(probe.envKeys.filter((k) => k !== 'PWD')).toEqual(['PATH']);
    expect(probe.pid).not.toBe(process.pid);
    // Run as root, the service hands its parsers to nobody.
    if (process.getuid?.() === 0) expect(probe.uid).toBe(65534);
    else expect(probe.uid).toBe(process.getuid?.());
  });

  it('a parser that allocates without bound is killed at its memory limit as too_large, and the next one starts fresh', async () => {
    const killed = await probeParser({ memoryMb: 96, timeoutMs: 60_000 }, { allocate: true }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(killed).toBeInstanceOf(ExtractionFailure);
    expect((killed as ExtractionFailure).reason).toBe('too_large');
    // Replaced: the next extraction gets a new process that answers.
    const next = await probeParser();
    expect(next.envKeys).toContain('PATH');
  }, 60_000);

  it('a parse that outlives its time is killed and reported as timeout, never awaited', async () => {
    const png = readFileSync(new URL('../fixtures/scan-contact.png', import.meta.url));
    const failed = await extractInParser('png', png, {}, 'image/png', { memoryMb: 512, timeoutMs: 300 }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(ExtractionFailure);
    expect((failed as ExtractionFailure).reason).toBe('timeout');
  });

  it('reads text in an image by OCR with the npm engine and model, inside the parser process', async () => {
    const png = readFileSync(new URL('../fixtures/scan-contact.png', import.meta.url));
    const found = await extractInParser('png', png, {}, 'image/png');
    expect(found.map((f) => [f.type, f.normalised])).toEqual([
      ['EMAIL', 'jane.doe@example.org'],
      ['PHONE', '+442071838750'],
    ]);
  }, 60_000);

  it('refuses input over its bound before any process starts', async () => {
    const failed = await extractInParser('text', Buffer.alloc(81 * 1024 * 1024), {}, 'text/plain').then(
      () => null,
      (error: unknown) => error,
    );
    expect((failed as ExtractionFailure).reason).toBe('too_large');
  });
});
