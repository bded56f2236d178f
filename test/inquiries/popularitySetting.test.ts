import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { inquire } from './support.js';

/**
 * TAS_POPULARITY_LIST (issue 47 item 1): an operator's own ranked list
 * replaces the shipped one with one setting, its ranks are what the tiers
 * read, and the ledger names the snapshot the answer used.
 */
const about = (type: string, value: string) => ({
  subject: { presentations: [{ type, value }] },
  intent: 'pre_transaction',
  purpose: 'fraud_prevention',
  stake: { kind: 'payment', amount: 50, currency: 'GBP' },
});

describe('an operator-chosen popularity list', () => {
  let ts: TestService;
  beforeAll(async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'tas-popularity-setting-')), 'operator-list.csv');
    // A Chrome UX Report top list: origins ranked in buckets.
    writeFileSync(path, 'origin,rank\nhttps://www.acme-widgets-example.co.uk,1000\nhttps://github.com,50000\n');
    ts = await startTestService({ TAS_POPULARITY_LIST: path }, { workers: false });
  });
  afterAll(async () => {
    await ts?.stop();
  });

  it('given a site the list ranks in its top 1,000, then that tier supports, and the ledger names the list', async () => {
    const r = await inquire(ts, about('DOMAIN', 'acme-widgets-example.co.uk'));
    expect(r.status).toBe(200);
    const kinds = r.body.findings.findings.filter((f: any) => f.disposition === 'supports').map((f: any) => f.kind);
    expect(kinds).toContain('site_rank_top_1000');
    const ledger = await fetch(`${ts.base}/v1/entities/${r.body.assessment.entity_id}/ledger`, {
      headers: { authorization: `Bearer ${ts.tenant.keys.test}` },
    });
    const entries = (await ledger.json()) as any[];
    expect(entries.at(-1).inputs.data_snapshots).toEqual([expect.stringMatching(/^popularity:operator-list\.csv@[0-9a-f]{12}$/)]);
  });

  it('given a site the shipped list ranks higher, then the rank is the chosen list’s', async () => {
    const r = await inquire(ts, about('DOMAIN', 'github.com'));
    const kinds = r.body.findings.findings.map((f: any) => f.kind);
    expect(kinds).toContain('site_rank_top_100000');
    expect(kinds).not.toContain('site_rank_top_1000');
  });
});
