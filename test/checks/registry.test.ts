import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applicableChecks, checksBeyondCeiling, discoverChecks } from '../../src/checks/registry.js';
import type { CheckDefinition } from '../../src/checks/types.js';

const FIXTURES = join(fileURLToPath(import.meta.url), '..', 'fixtures');

const OFFLINE_IDS = [
  'claim_consistency',
  'disposable_email',
  'domain_homograph',
  'domain_lookalike',
  'domain_shape',
  'email_syntax',
  'established_site',
  'free_mail',
  'inquiry_context',
  'ip_literal_host',
  'ip_network',
  'ip_range',
  'local_part',
  'mailbox_brand',
  'phone_country',
  'phone_line_type',
  'phone_validity',
  'public_suffix',
  'role_account',
  'sanctions_name',
  'shared_hosting',
  'shared_value',
  'site_popularity',
  'tenant_history',
  'url_shape',
  'url_shortener',
  'value_form',
  'velocity',
];

describe('discoverChecks', () => {
  it('given no network configuration, then it finds exactly the offline checks, sorted by id', async () => {
    const checks = await discoverChecks({});
    expect(checks.map((check) => check.id)).toEqual(OFFLINE_IDS);
    for (const check of checks) expect([check.tier, check.runs, check.cost]).toEqual(['t0', 'inline', 0]);
  });

  it('given resolvers and an RDAP service, then the network checks join them', async () => {
    const checks = await discoverChecks({ dnsServers: ['127.0.0.1:53'], rdapBaseUrl: 'http://127.0.0.1:1', networkTimeoutMs: 500 });
    const network = checks.filter((check) => check.runs === 'worker');
    expect(network.map((check) => [check.id, check.kind, check.tier, check.timeoutMs])).toEqual([
      ['dns_address', 'domain_resolves', 't1', 500],
      ['dns_mx', 'mail_exchanger', 't1', 500],
      ['dns_ns', 'domain_delegation', 't1', 500],
      ['rdap_domain_age', 'domain_age', 't1', 500],
    ]);
  });

  it('given a providers file, then its checks join under their neutral ids', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tas-registry-')), 'providers.json');
    writeFileSync(
      file,
      JSON.stringify([
        {
          name: 'Some Vendor',
          id: 'account_reputation',
          kind: 'account_reputation',
          artifact_types: ['ACCOUNT'],
          trust_band: 'low',
          data_class: 'C1',
          cost: 1,
          timeout_ms: 500,
          request: { method: 'GET', url_template: 'https://vendor.example/{value}', auth: { type: 'none' } },
          mapping: [{ path: '/bad', op: 'truthy', disposition: 'weakens', statement: 'The account is reported for abuse.' }],
        },
      ]),
    );
    const checks = await discoverChecks({ providersFile: file });
    expect(checks.find((check) => check.id === 'account_reputation')).toMatchObject({ tier: 't2', runs: 'worker', cost: 1 });
  });

  it('given modules exporting check, checks and createChecks, then all are collected and helpers ignored', async () => {
    const directory = join(FIXTURES, 'mixedExports');
    expect((await discoverChecks({}, { directory })).map((check) => check.id)).toEqual(['alpha', 'beta', 'zeta']);
    expect((await discoverChecks({ rdapBaseUrl: 'x' }, { directory })).map((check) => check.id)).toEqual([
      'alpha',
      'beta',
      'gamma',
      'zeta',
    ]);
  });

  it('given two modules with the same check id, then discovery refuses to start', async () => {
    await expect(discoverChecks({}, { directory: join(FIXTURES, 'duplicateIds') })).rejects.toThrow(/same_id/);
  });
});

describe('applicableChecks', () => {
  const stub = (id: string, tier: CheckDefinition['tier'], artifactTypes: string[]): CheckDefinition => ({
    id,
    kind: id,
    tier,
    artifactTypes,
    runs: 'inline',
    cost: 0,
    timeoutMs: 1,
    provenanceClass: 'computed',
    trustBand: 'low',
    dataClass: 'C0',
    looksAt: 'a stub',
    declares: [],
    run: () => ({ signals: [], absences: [] }),
  });
  const checks = [stub('a', 't0', ['EMAIL']), stub('b', 't1', ['EMAIL', 'DOMAIN']), stub('c', 't2', ['EMAIL']), stub('d', 't0', ['PHONE'])];

  it.each([
    ['EMAIL', 't0', ['a'], ['b', 'c']],
    ['EMAIL', 't1', ['a', 'b'], ['c']],
    ['EMAIL', 't2', ['a', 'b', 'c'], []],
    ['DOMAIN', 't0', [], ['b']],
    ['PHONE', 't2', ['d'], []],
    ['IP', 't2', [], []],
  ] as const)('given %s under ceiling %s, then %j apply and %j are out of reach', (type, ceiling, applicable, beyond) => {
    expect(applicableChecks(checks, type, ceiling).map((check) => check.id)).toEqual(applicable);
    expect(checksBeyondCeiling(checks, type, ceiling).map((check) => check.id)).toEqual(beyond);
  });
});
