import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The fixture provider the tests and the benches register: one providers-file
 * entry (the TAS_PROVIDERS_FILE format, src/checks/httpProviders.ts) for an
 * EMAIL reputation provider at a loopback HTTP fixture, which answers
 * `{"risk":"low"}` (supports) or `{"risk":"high"}` (weakens).
 */
export function fixtureProvider(url: string, name: string, timeoutMs: number) {
  return {
    name,
    id: 'email_reputation',
    kind: 'email_reputation',
    artifact_types: ['EMAIL'],
    tier: 't2',
    provenance_class: 'third_party',
    trust_band: 'high',
    data_class: 'C1',
    cost: 1,
    timeout_ms: timeoutMs,
    request: { method: 'GET', url_template: `${url}/lookup?email={normalised}`, auth: { type: 'none' } },
    mapping: [
      { path: '/risk', op: 'eq', value: 'low', disposition: 'supports', statement: 'The email address has a clean reputation.' },
      { path: '/risk', op: 'eq', value: 'high', disposition: 'weakens', statement: 'The email address has a poor reputation.' },
    ],
  };
}

/** Writes a providers file holding the fixture provider alone, as `<prefix>-<random>.json` in the temporary folder; returns its path. */
export function writeFixtureProvidersFile(prefix: string, url: string, name: string, timeoutMs: number): string {
  const path = join(tmpdir(), `${prefix}-${randomBytes(4).toString('hex')}.json`);
  writeFileSync(path, JSON.stringify([fixtureProvider(url, name, timeoutMs)]));
  return path;
}
