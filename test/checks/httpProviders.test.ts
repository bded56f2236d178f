import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpProviderChecks, loadHttpProviders, parseHttpProviders } from '../../src/checks/httpProviders.js';
import { runCheck } from '../../src/checks/runCheck.js';
import type { CheckDefinition, CheckResult } from '../../src/checks/types.js';
import { sendJson, startHttpFixture, type HttpFixture } from './httpFixture.js';
import { contextFor, verdict } from './support.js';

const PROVIDER_NAME = 'AcmeSecretIntel';
const RAW_MARKER = 'RAWPAYLOAD-7f3c9e';
const SECRET = 'sk-test-0123456789';

/** Everything the provider may say, with its name and a raw marker in every answer. */
function respond(email: string, response: import('node:http').ServerResponse): void {
  const leaky = { 'x-powered-by': PROVIDER_NAME };
  const body = (verdict: object) => ({ provider: PROVIDER_NAME, trace: RAW_MARKER, verdict });
  const local = email.split('@')[0];
  switch (local) {
    case 'risky':
      return sendJson(response, 200, body({ risk_score: 91, breached: true }), leaky);
    case 'clean':
      return sendJson(response, 200, body({ risk_score: '7', breached: false }), leaky);
    case 'quiet':
      return sendJson(response, 200, body({}), leaky);
    case 'unknown':
      return sendJson(response, 404, { error: `${PROVIDER_NAME} has no ${RAW_MARKER}` }, leaky);
    case 'throttled':
      return sendJson(response, 429, { error: RAW_MARKER }, leaky);
    case 'broken':
      return sendJson(response, 500, { error: `${PROVIDER_NAME} exploded: ${RAW_MARKER}` }, leaky);
    case 'slow': {
      setTimeout(() => sendJson(response, 200, body({ risk_score: 1 })), 1500);
      return;
    }
    case 'html': {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(`<h1>${PROVIDER_NAME} ${RAW_MARKER}</h1>`);
      return;
    }
    case 'garbage': {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(`{"${PROVIDER_NAME}": ${RAW_MARKER}`);
      return;
    }
    case 'huge':
      return sendJson(response, 200, { padding: RAW_MARKER.repeat(40_000) });
    case 'moved': {
      response.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' });
      response.end();
      return;
    }
    default:
      return sendJson(response, 400, {});
  }
}

function descriptionFile(baseUrl: string, overrides: Record<string, unknown> = {}): object[] {
  return [
    {
      name: PROVIDER_NAME,
      id: 'email_reputation',
      kind: 'email_reputation',
      artifact_types: ['EMAIL'],
      tier: 't2',
      trust_band: 'medium',
      data_class: 'C1',
      cost: 3,
      timeout_ms: 300,
      request: {
        method: 'GET',
        url_template: `${baseUrl}/v1/lookup?email={normalised}`,
        headers: { 'x-client': 'tas' },
        auth: { type: 'bearer', env: 'ACME_TOKEN' },
      },
      mapping: [
        {
          path: '/verdict/risk_score',
          op: 'gt',
          value: 80,
          disposition: 'weakens',
          statement: 'The address is linked to recent abuse reports.',
        },
        {
          path: '/verdict/risk_score',
          op: 'lte',
          value: 20,
          disposition: 'supports',
          statement: 'The address has a long record without abuse reports.',
        },
        { path: '/verdict/breached', op: 'truthy', disposition: 'neutral', statement: 'The address appears in a known data breach.' },
      ],
      on_status: { '404': 'no_data', '429': 'budget' },
      ...overrides,
    },
  ];
}

function expectNoLeak(value: unknown): void {
  const text = JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'function' ? String(inner) : inner)) ?? '';
  expect(text.toLowerCase()).not.toContain(PROVIDER_NAME.toLowerCase());
  expect(text).not.toContain(RAW_MARKER);
  expect(text).not.toContain(SECRET);
}

describe('HTTP providers against a loopback provider', () => {
  let fixture: HttpFixture;
  let check: CheckDefinition;
  const ask = (email: string): Promise<CheckResult> => runCheck(check, contextFor('EMAIL', email));

  beforeAll(async () => {
    fixture = await startHttpFixture((request, response) => {
      if (request.headers.authorization !== `Bearer ${SECRET}`) return sendJson(response, 401, { error: PROVIDER_NAME });
      respond(new URL(request.url ?? '/', 'http://x').searchParams.get('email') ?? '', response);
    });
    const [description] = parseHttpProviders(JSON.stringify(descriptionFile(fixture.baseUrl)));
    check = createHttpProviderChecks([description!], { env: { ACME_TOKEN: SECRET } })[0]!;
  });
  afterAll(() => fixture.close());

  it('builds a check under our neutral id, without the name anywhere in it', () => {
    expect(check).toMatchObject({ id: 'email_reputation', kind: 'email_reputation', tier: 't2', runs: 'worker', cost: 3, timeoutMs: 300 });
    expectNoLeak(check);
  });

  it.each([
    [
      'a high risk score',
      'risky@example.com',
      [
        ['weakens', 'The address is linked to recent abuse reports.'],
        ['neutral', 'The address appears in a known data breach.'],
      ],
    ],
    ['a low risk score written as a string', 'clean@example.com', [['supports', 'The address has a long record without abuse reports.']]],
  ])('given %s, then the operator statements are the signals', async (_given, email, expected) => {
    const result = await ask(email);
    expect(result.signals.map((signal) => [signal.disposition, signal.statement])).toEqual(expected);
    expect(result.signals[0]).toMatchObject({
      kind: 'email_reputation',
      provenance_class: 'third_party',
      trust_band: 'medium',
      data_class: 'C1',
    });
    expectNoLeak(result);
  });

  it('sends the normalised value and the secret, and nothing else of ours', async () => {
    await ask(' Risky@Example.com ');
    const sent = fixture.requests.at(-1)!;
    expect(sent.url).toBe('/v1/lookup?email=risky%40example.com');
    expect(sent.headers['x-client']).toBe('tas');
  });

  it.each([
    ['an answer no rule maps', 'quiet@example.com', 'no_data', "The provider's answer held nothing about this value."],
    ['a 404 mapped to no_data', 'unknown@example.com', 'no_data', 'The provider has no record of this value.'],
    ['a 429 mapped to budget', 'throttled@example.com', 'budget', "The provider's usage allowance is exhausted."],
    ['a 500', 'broken@example.com', 'error', 'The provider answered with an error.'],
    ['an answer past the timeout', 'slow@example.com', 'timeout', 'The provider did not answer in time.'],
    ['an HTML answer', 'html@example.com', 'error', "The provider's answer could not be read."],
    ['malformed JSON', 'garbage@example.com', 'error', "The provider's answer could not be read."],
    ['an answer over the size cap', 'huge@example.com', 'error', "The provider's answer could not be read."],
    ['a redirect, which would carry the secret elsewhere', 'moved@example.com', 'error', 'The provider could not be reached.'],
  ])('given %s, then an absence with neutral wording and nothing of the provider', async (_given, email, kind, reason) => {
    const result = await ask(email);
    expect(result.signals).toEqual([]);
    // Each absence is led by the id of the check that could not answer.
    expect(result.absences).toEqual([{ about: email, about_type: 'EMAIL', kind, reason: `email_reputation: ${reason}` }]);
    expectNoLeak(result);
  });

  it('given the secret is not set, then an error absence and no request', async () => {
    const [description] = parseHttpProviders(JSON.stringify(descriptionFile(fixture.baseUrl)));
    const [unconfigured] = createHttpProviderChecks([description!], { env: {} });
    const before = fixture.requests.length;
    const result = await runCheck(unconfigured!, contextFor('EMAIL', 'risky@example.com'));
    expect(result.absences[0]).toMatchObject({ kind: 'error', reason: 'email_reputation: The provider check is missing its credentials.' });
    expect(fixture.requests.length).toBe(before);
  });

  it('given a wrong secret, then the 401 is an error absence without the name', async () => {
    const [description] = parseHttpProviders(JSON.stringify(descriptionFile(fixture.baseUrl)));
    const [wrong] = createHttpProviderChecks([description!], { env: { ACME_TOKEN: 'nope' } });
    const result = await runCheck(wrong!, contextFor('EMAIL', 'risky@example.com'));
    expect(verdict(result)).toBe('absence:error');
    expectNoLeak(result);
  });

  it('given a POST provider with a header secret, then the body carries the value', async () => {
    const post = {
      method: 'POST',
      url_template: `${fixture.baseUrl}/v2/check`,
      body: { email: '{value}' },
      auth: { type: 'header', env: 'ACME_KEY', header: 'x-api-key' },
    };
    const [description] = parseHttpProviders(JSON.stringify(descriptionFile(fixture.baseUrl, { request: post })));
    const [postCheck] = createHttpProviderChecks([description!], { env: { ACME_KEY: SECRET } });
    const result = await runCheck(postCheck!, contextFor('EMAIL', 'x@example.com'));
    const sent = fixture.requests.at(-1)!;
    expect([sent.method, sent.headers['x-api-key'], sent.headers['content-type'], JSON.parse(sent.body)]).toEqual([
      'POST',
      SECRET,
      'application/json',
      { email: 'x@example.com' },
    ]);
    expectNoLeak(result);
  });
});

describe('a provider that keeps failing', () => {
  it('is asked until its breaker opens, then not asked: the check answers an error absence at once and the plan answers it inline', async () => {
    const down = await startHttpFixture((_request, response) =>
      sendJson(response, 503, { error: `${PROVIDER_NAME} is down: ${RAW_MARKER}` }),
    );
    try {
      const [description] = parseHttpProviders(JSON.stringify(descriptionFile(down.baseUrl)));
      const [failing] = createHttpProviderChecks([description!], { env: { ACME_TOKEN: SECRET } });
      for (const email of ['one@example.com', 'two@example.com']) {
        expect((await runCheck(failing!, contextFor('EMAIL', email))).absences).toEqual([
          expect.objectContaining({ kind: 'error', reason: 'email_reputation: The provider answered with an error.' }),
        ]);
      }
      expect(down.requests).toHaveLength(2);
      const skipped = await runCheck(failing!, contextFor('EMAIL', 'three@example.com'));
      expect(skipped.absences).toEqual([
        {
          about: 'three@example.com',
          about_type: 'EMAIL',
          kind: 'error',
          reason: 'email_reputation: The provider has been failing to answer, so it was not asked.',
        },
      ]);
      expect(down.requests).toHaveLength(2);
      expect(failing!.unreachableReason?.(contextFor('EMAIL', 'four@example.com').presentation)).toBe(
        'The provider has been failing to answer, so it was not asked.',
      );
      expectNoLeak(skipped);
    } finally {
      await down.close();
    }
  });
});

describe('the providers description file', () => {
  const directory = mkdtempSync(join(tmpdir(), 'tas-providers-'));
  const write = (name: string, content: string): string => {
    const path = join(directory, name);
    writeFileSync(path, content);
    return path;
  };

  it('given a valid file, then one check per provider', () => {
    const checks = loadHttpProviders(write('ok.json', JSON.stringify(descriptionFile('https://intel.example'))));
    expect(checks.map((check) => check.id)).toEqual(['email_reputation']);
    expectNoLeak(checks);
  });

  it.each([
    ['invalid JSON', `[{"name": "${PROVIDER_NAME}", `],
    ['an unknown key', JSON.stringify(descriptionFile('https://intel.example', { colour: PROVIDER_NAME }))],
    [
      'a statement naming the provider',
      JSON.stringify(
        descriptionFile('https://intel.example', {
          mapping: [{ path: '/x', op: 'exists', disposition: 'weakens', statement: `Flagged by ${PROVIDER_NAME}.` }],
        }),
      ),
    ],
    ['an id naming the provider', JSON.stringify(descriptionFile('https://intel.example', { id: 'acmesecretintel_check' }))],
    [
      'a comparison without a value',
      JSON.stringify(
        descriptionFile('https://intel.example', {
          mapping: [{ path: '/x', op: 'gt', disposition: 'weakens', statement: 'High.' }],
        }),
      ),
    ],
    ['a t0 provider', JSON.stringify(descriptionFile('https://intel.example', { tier: 't0' }))],
    ['duplicate ids', JSON.stringify([...descriptionFile('https://a.example'), ...descriptionFile('https://b.example')])],
  ])('given %s, then loading fails with an error that does not quote the name', (_given, content) => {
    let thrown: unknown;
    try {
      loadHttpProviders(write('bad.json', content));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message.toLowerCase()).not.toContain(PROVIDER_NAME.toLowerCase());
  });
});
