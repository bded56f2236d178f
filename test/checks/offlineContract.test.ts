import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { discoverChecks } from '../../src/checks/registry.js';
import type { CheckDefinition, CheckResult } from '../../src/checks/types.js';
import { contextFor, NOW } from './support.js';

/**
 * What every offline check promises, whatever it is given: it answers
 * without throwing, inside its timeout, with signals whose shared fields come
 * from its definition and absences that say something.
 */
function expectWellFormed(check: CheckDefinition, result: CheckResult, about: string): void {
  for (const signal of result.signals) {
    expect(signal.about).toBe(about);
    expect(signal.statement.trim()).not.toBe('');
    expect(['supports', 'weakens', 'neutral']).toContain(signal.disposition);
    expect(signal).toMatchObject({ provenance_class: check.provenanceClass, trust_band: check.trustBand, data_class: check.dataClass });
    expect(Number.isNaN(Date.parse(signal.observed_at))).toBe(false);
  }
  for (const absence of result.absences) {
    expect(absence.about).toBe(about);
    expect(absence.reason.trim()).not.toBe('');
  }
}

describe('offline checks on arbitrary input', () => {
  let checks: CheckDefinition[];
  beforeAll(async () => {
    checks = await discoverChecks({});
  });

  it('never throw and always answer well-formed, for any value of any type they accept', async () => {
    const value = fc.oneof(
      fc.string(),
      fc.string({ unit: 'grapheme' }),
      fc.emailAddress(),
      fc.webUrl(),
      fc.domain(),
      fc.ipV4(),
      fc.ipV6(),
      fc.constantFrom('+44 7400 123456', '0', '@', 'http://', 'xn--', 'xn--zz.com', '[::1]', 'a@b@c'),
    );
    const claimed = fc.record(
      { name: fc.string(), country: fc.string({ maxLength: 3 }), website: fc.string(), email: fc.string() },
      { requiredKeys: [] },
    );
    const claim = fc.option(claimed, { nil: undefined });
    await fc.assert(
      fc.asyncProperty(value, claim, async (raw, claimed) => {
        for (const check of checks) {
          for (const type of check.artifactTypes) {
            const started = performance.now();
            const result = await check.run(contextFor(type, raw, { claim: claimed }));
            // Generous on purpose: this catches pathological growth, not a slow test machine.
            expect(performance.now() - started).toBeLessThan(500);
            expectWellFormed(check, result, raw);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('given absurdly long values, then each check still answers within its timeout', async () => {
    const long = ['a'.repeat(100_000), `jane@${'b'.repeat(50_000)}.com`, `https://${'c'.repeat(60)}.${'d'.repeat(100_000)}.com/`];
    for (const check of checks) {
      for (const type of check.artifactTypes) {
        for (const raw of long) {
          // The work a check does on the value is what could hold the request
          // path; it is counted in this process's CPU time, which other
          // processes on a shared machine cannot inflate the way they inflate
          // wall time. Offline checks never wait on the network.
          const started = process.cpuUsage();
          await check.run(contextFor(type, raw));
          const spent = process.cpuUsage(started);
          expect((spent.user + spent.system) / 1000, `${check.id} on ${type}`).toBeLessThan(check.timeoutMs);
        }
      }
    }
  });

  it('stamp the evaluation time unless the fact is dated', async () => {
    const check = checks.find((candidate) => candidate.id === 'email_syntax')!;
    const result = await check.run(contextFor('EMAIL', 'jane@example.com'));
    expect(result.signals[0]!.observed_at).toBe(NOW.toISOString());
  });
});
