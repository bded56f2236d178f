import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsChecks } from '../../src/checks/dnsChecks.js';
import { resolverHealth } from '../../src/checks/resolverCanary.js';
import type { CheckDefinition } from '../../src/checks/types.js';
import { startDnsFixture, type DnsFixture } from './dnsFixture.js';
import { contextFor, runOn } from './support.js';

/**
 * A resolver that cannot answer a known-good name gives no negative evidence
 * (issue 11): "this domain does not exist" from a broken resolver is an
 * absence, and /healthz's resolver field says degraded.
 */
let honest: DnsFixture;
let broken: DnsFixture;
let silent: DnsFixture;
const askedSilent: string[] = [];
const askedBroken: string[] = [];
beforeAll(async () => {
  // Never answers, as a resolver that is down or cut off: every question waits out the timeout.
  silent = await startDnsFixture({}, { silent: true, onQuestion: (name) => askedSilent.push(name) });
  honest = await startDnsFixture({ 'canary.test': { A: ['192.0.2.1'] }, 'live.test': { A: ['192.0.2.2'] } });
  // Answers NXDOMAIN for everything, the canary included: a filtering or failing resolver.
  broken = await startDnsFixture({ 'live.test': { A: ['192.0.2.2'] } }, { onQuestion: (name) => askedBroken.push(name) });
});
afterAll(async () => {
  await honest?.close();
  await broken?.close();
  await silent?.close();
});

const addressCheck = (server: string): CheckDefinition =>
  createDnsChecks({ servers: [server], timeoutMs: 1000, canaryName: 'canary.test' }).find((c) => c.id === 'dns_address')!;

describe('the resolver canary', () => {
  it('an honest resolver: a name that does not exist weakens, and the resolver is ok', async () => {
    const result = await runOn(addressCheck(honest.server), 'DOMAIN', 'gone.test');
    expect(result.signals).toContainEqual(expect.objectContaining({ disposition: 'weakens' }));
    expect(resolverHealth()).toBe('ok');
  });

  it('a resolver that fails the known-good name: no weakening, an absence, and the resolver is degraded', async () => {
    const check = addressCheck(broken.server);
    const result = await runOn(check, 'DOMAIN', 'gone.test');
    expect(result.signals.filter((s) => s.disposition === 'weakens')).toEqual([]);
    expect(result.absences).toContainEqual(expect.objectContaining({ kind: 'error' }));
    expect(resolverHealth()).toBe('degraded');
    // Once it is known to answer wrongly it is not asked at all: even a name it would find is an absence.
    const asked = askedBroken.length;
    const later = await runOn(check, 'DOMAIN', 'live.test');
    expect(later.signals).toEqual([]);
    expect(later.absences).toEqual([
      expect.objectContaining({
        kind: 'error',
        reason: expect.stringMatching(/did not answer a known-good name correctly, so no look-up was made/),
      }),
    ]);
    expect(askedBroken.slice(asked)).toEqual([]);
    // And the plan answers it on the request path instead of queueing it.
    expect(check.unreachableReason?.(contextFor('DOMAIN', 'live.test').presentation)).toMatch(/no look-up was made/);
  });
});

describe('a resolver that does not answer at all', () => {
  it('is reported degraded without any inquiry, and the checks stop asking it until it answers', async () => {
    const check = createDnsChecks({ servers: [silent.server], timeoutMs: 300, canaryName: 'canary.test' }).find(
      (c) => c.id === 'dns_address',
    )!;
    // The canary asks once when the checks are made; no look-up has run yet.
    await expect.poll(() => resolverHealth(), { timeout: 3000, interval: 50 }).toBe('degraded');
    expect(askedSilent).toEqual(['canary.test']);

    const result = await runOn(check, 'DOMAIN', 'gone.test');
    expect(result.signals).toEqual([]);
    expect(result.absences).toContainEqual(expect.objectContaining({ kind: 'error' }));
    expect(askedSilent).not.toContain('gone.test');
  });
});
