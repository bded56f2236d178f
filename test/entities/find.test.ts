import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EntityFindOut } from '../../src/entities/findSchemas.js';
import type { ProvisionedTenant } from '../../src/tenancy/provision.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

/**
 * GET /v1/entities (issue 38), the finding extension: a presented value,
 * normalised as entity resolution normalises it, finds the key's own
 * tenant's and mode's entities only; bad input is a 422 naming the field.
 */
let ts: TestService;
let other: ProvisionedTenant;

beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
  other = await ts.provision('other-tenant');
});

afterAll(async () => {
  await ts?.stop();
});

async function call(method: 'GET' | 'POST', path: string, key: string, body?: unknown) {
  const res = await fetch(`${ts.base}${path}`, {
    method,
    headers: { ...bearer(key), 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function inquire(key: string, presentations: { type: string; value: string }[]): Promise<string> {
  const res = await call('POST', '/v1/inquiries', key, {
    subject: { presentations },
    intent: 'counterparty_check',
    purpose: 'fraud_prevention',
    stake: { kind: 'other' },
  });
  expect(res.status).toBe(200);
  return res.body.assessment.entity_id;
}

async function find(key: string, query: Record<string, string>) {
  return call('GET', `/v1/entities?${new URLSearchParams(query).toString()}`, key);
}

describe('GET /v1/entities', () => {
  it("finds the key's own entity by a value written another way, never another tenant's or mode's", async () => {
    const mine = await inquire(ts.tenant.keys.live, [
      { type: 'EMAIL', value: 'Ann.Find@Example.org' },
      { type: 'PHONE', value: '+44 20 7946 0123' },
    ]);
    const theirs = await inquire(other.keys.live, [{ type: 'EMAIL', value: 'ann.find@example.org' }]);
    await inquire(other.keys.live, [{ type: 'EMAIL', value: 'only.theirs@example.org' }]);
    expect(theirs).not.toBe(mine);

    const byEmail = await find(ts.tenant.keys.live, { type: 'EMAIL', value: '  ANN.find@example.ORG ' });
    expect(byEmail.status).toBe(200);
    const found = EntityFindOut.parse(byEmail.body);
    expect(found.normalised).toBe('ann.find@example.org');
    expect(found.entities).toEqual([expect.objectContaining({ entity_id: mine, held_as: 'anchor', entity_url: `/v1/entities/${mine}` })]);
    // The phone was presented beside the anchor: a link, found in its national form read in the given country.
    const byPhone = EntityFindOut.parse((await find(ts.tenant.keys.live, { type: 'PHONE', value: '020 7946 0123', country: 'GB' })).body);
    expect(byPhone.normalised).toBe('+442079460123');
    expect(byPhone.entities.map((e) => [e.entity_id, e.held_as])).toEqual([[mine, 'link']]);

    // The other tenant finds its own entity by the same value, and this tenant never finds the other's.
    const theirView = EntityFindOut.parse((await find(other.keys.live, { type: 'EMAIL', value: 'ann.find@example.org' })).body);
    expect(theirView.entities.map((e) => e.entity_id)).toEqual([theirs]);
    const notMine = EntityFindOut.parse((await find(ts.tenant.keys.live, { type: 'EMAIL', value: 'only.theirs@example.org' })).body);
    expect(notMine.entities).toEqual([]);
    // Nor does the same tenant's test mode see its live entities.
    const testMode = EntityFindOut.parse((await find(ts.tenant.keys.test, { type: 'EMAIL', value: 'ann.find@example.org' })).body);
    expect(testMode.entities).toEqual([]);
  });

  it('refuses bad input with a 422 naming the field', async () => {
    const locs = async (query: Record<string, string>) => {
      const res = await find(ts.tenant.keys.live, query);
      expect(res.status).toBe(422);
      return (res.body.detail as { loc: (string | number)[]; msg: string }[]).map((d) => ({ loc: d.loc.join('.'), msg: d.msg }));
    };
    expect((await locs({ type: 'EMAIL' })).map((d) => d.loc)).toEqual(['query.value']);
    expect((await locs({ value: 'ann.find@example.org' })).map((d) => d.loc)).toEqual(['query.type']);
    expect((await locs({ type: 'PHONE', value: '020 7946 0123', country: 'gb' })).map((d) => d.loc)).toEqual(['query.country']);
    expect((await locs({ type: 'EMAIL', value: 'a@b.example', limit: '0' })).map((d) => d.loc)).toEqual(['query.limit']);
    expect((await locs({ type: 'EMAIL', value: 'a@b.example', valeu: 'x' })).map((d) => d.loc)).toEqual(['query.valeu']);
    // A type the tenant has not registered: rule I15, as an inquiry is refused, with where the registered ones are listed.
    const unregistered = await locs({ type: 'email', value: 'ann.find@example.org' });
    expect(unregistered.map((d) => d.loc)).toEqual(['query.type']);
    expect(unregistered[0]!.msg).toContain('GET /v1/registry/artifact-types');
  });

  it('needs the entities scope', async () => {
    const key = await call('POST', '/v1/admin/keys', ts.tenant.keys.live_admin, {
      name: 'no entities',
      scopes: ['inquiries'],
      mode: 'live',
    });
    expect(key.status).toBe(201);
    expect((await find(key.body.secret, { type: 'EMAIL', value: 'ann.find@example.org' })).status).toBe(403);
  });
});
