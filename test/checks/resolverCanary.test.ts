import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsChecks } from '../../src/checks/dnsChecks.js';
import { resolverHealth } from '../../src/checks/resolverCanary.js';
import type { CheckDefinition } from '../../src/checks/types.js';
import { startDnsFixture, type DnsFixture } from './dnsFixture.js';
import { runOn } from './support.js';

/**
 * A resolver that cannot answer a known-good name gives no negative evidence
 * (issue 11): "this domain does not exist" from a broken resolver is an
 * absence, and /healthz's resolver field says degraded.
 */
let honest: DnsFixture;
let broken: DnsFixture;
beforeAll(async () => {
  honest = await startDnsFixture({ 'canary.test': { A: ['192.0.2.1'] }, 'live.test': { A: ['192.0.2.2'] } });
  // Answers NXDOMAIN for everything, the canary included: a filtering or failing resolver.
  broken = await startDnsFixture({ 'live.test': { A: ['192.0.2.2'] } });
});
afterAll(async () => {
  await honest?.close();
  await broken?.close();
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
    // Positive answers still stand: a resolver that finds records is answering.
    expect((await runOn(check, 'DOMAIN', 'live.test')).signals).toContainEqual(expect.objectContaining({ disposition: 'supports' }));
  });
});
