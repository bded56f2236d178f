import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createModelRenderer } from '../../src/reports/model.js';
import type { ModelFailure } from '../../src/reports/model.js';
import { presentedValueRedactor } from '../../src/reports/modelPayload.js';
import { renderReport } from '../../src/reports/render.js';
import { renderTemplateReport } from '../../src/reports/template.js';
import { Report } from '../../src/assessment/schemas.js';
import { assessment, expectNoPresentedValue, findings, NOW } from './fixtures.js';
import { json, startModelServer } from './modelServer.js';
import type { ModelServer } from './modelServer.js';

let server: ModelServer;
let failures: ModelFailure[];
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.received.length = 0;
  failures = [];
});

const input = { assessment: assessment(), findings: findings(), lang: 'pt-BR', now: NOW };
const templateKeys = renderTemplateReport(input).sections.map((s) => s.key);
const modelSections = (keys: string[] = templateKeys): { key: string; title: string; body: string }[] =>
  keys.map((key) => ({ key, title: `Model ${key}`, body: `Prose about ${key}.` }));

function renderer(options: { timeoutMs?: number; apiKeyEnv?: string; env?: Record<string, string> } = {}) {
  return createModelRenderer({
    endpoint: server.url,
    timeoutMs: options.timeoutMs ?? 2_000,
    promptVersion: 'report-v7',
    ...(options.apiKeyEnv ? { apiKeyEnv: options.apiKeyEnv } : {}),
    env: options.env ?? {},
    onFailure: (reason) => failures.push(reason),
  });
}

describe('model renderer: success', () => {
  it('given a well-formed reply, then the report is the model prose with the template ids, card and lang', async () => {
    server.answer(json(200, { sections: modelSections().reverse() }));
    const report = await renderer().render(input);
    const template = renderTemplateReport(input);
    expect(report).not.toBeNull();
    expect(() => Report.parse(report)).not.toThrow();
    expect(report).toMatchObject({ rendered_by: 'model', prompt_version: 'report-v7', lang: 'pt', share: template.share });
    expect(report?.sections.map((s) => s.key)).toEqual(templateKeys);
    expect(report?.sections.map((s) => s.finding_ids)).toEqual(template.sections.map((s) => s.finding_ids));
    expect(report?.sections[0]).toMatchObject({ title: 'Model summary', body: 'Prose about summary.' });
  });

  it('sends prompt_version, lang, the assessment and findings with every presented value replaced by its type', async () => {
    server.answer(json(200, { sections: modelSections() }));
    await renderer().render(input);
    expect(server.received).toHaveLength(1);
    const raw = server.received[0]?.body ?? '';
    expect(expectNoPresentedValue(raw)).toEqual([]);
    const sent = JSON.parse(raw);
    expect(Object.keys(sent).sort()).toEqual(['assessment', 'findings', 'lang', 'prompt_version']);
    expect(sent).toMatchObject({ prompt_version: 'report-v7', lang: 'pt', assessment: { score: 72, entity_id: null } });
    expect(sent.findings.subject).toEqual([{ type: 'EMAIL' }, { type: 'PHONE' }, { type: 'NAME' }]);
    expect(sent.findings.findings.map((f: { about: string }) => f.about)).toEqual(['EMAIL', 'EMAIL', 'PHONE', 'EMAIL', 'NAME']);
    expect(sent.findings.findings[0].statement).toBe("The address [EMAIL] is at an established organisation's own domain.");
    expect(sent.findings.findings[2].statement).toBe('The number [PHONE] is a fixed line valid in the claimed country.');
    expect(sent.findings.absences[0]).toMatchObject({ about: 'PHONE', reason: 'No answer in time for [PHONE].' });
    expect(sent.findings.connections[0]).toMatchObject({ from_label: 'EMAIL', reason: 'Another subject of yours also presented [EMAIL].' });
    expect(server.received[0]?.headers.authorization).toBeUndefined();
  });

  it('given apiKeyEnv, then the key from that variable is the bearer token', async () => {
    server.answer(json(200, { sections: modelSections() }));
    await renderer({ apiKeyEnv: 'REPORT_MODEL_KEY', env: { REPORT_MODEL_KEY: 'sk-test-123' } }).render(input);
    expect(server.received[0]?.headers.authorization).toBe('Bearer sk-test-123');
  });

  it('given apiKeyEnv naming an unset variable, then it answers null without calling out', async () => {
    expect(await renderer({ apiKeyEnv: 'REPORT_MODEL_KEY' }).render(input)).toBeNull();
    expect(server.received).toHaveLength(0);
    expect(failures).toEqual(['api_key_missing']);
  });
});

describe('model renderer: any failure answers null', () => {
  it('given an endpoint slower than timeoutMs, then null (timeout)', async () => {
    server.answer(() => undefined); // never answers
    const started = Date.now();
    expect(await renderer({ timeoutMs: 150 }).render(input)).toBeNull();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(failures).toEqual(['timeout']);
  });

  it('given headers sent but a body that stalls, then the timeout still applies', async () => {
    server.answer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"sections": [');
    });
    expect(await renderer({ timeoutMs: 150 }).render(input)).toBeNull();
    expect(failures).toEqual(['timeout']);
  });

  it.each<[string, Parameters<ModelServer['answer']>[0], ModelFailure]>([
    ['garbage bytes', (_req, res) => res.writeHead(200).end('<<not json>>'), 'not_json'],
    ['a 500', json(500, { sections: modelSections() }), 'http_status'],
    ['an unknown top-level field', json(200, { sections: modelSections(), note: 'x' }), 'invalid_reply'],
    ['an unknown section field', json(200, { sections: modelSections().map((s) => ({ ...s, finding_ids: ['f-9'] })) }), 'invalid_reply'],
    ['an empty title', json(200, { sections: modelSections().map((s) => ({ ...s, title: ' ' })) }), 'invalid_reply'],
    ['a missing section', json(200, { sections: modelSections(templateKeys.slice(1)) }), 'sections_mismatch'],
    ['an extra section', json(200, { sections: modelSections([...templateKeys, 'advice']) }), 'sections_mismatch'],
    [
      'a duplicated section',
      json(200, { sections: modelSections([...templateKeys.slice(1), templateKeys[1] ?? '']) }),
      'sections_mismatch',
    ],
    ['a reply over the size limit', (_req, res) => res.writeHead(200).end(`{"sections":[],"x":"${'a'.repeat(300_000)}"}`), 'too_large'],
    ['a redirect', (_req, res) => res.writeHead(302, { location: 'http://127.0.0.1:1/' }).end(), 'network'],
  ])('given %s, then null', async (_name, answer, reason) => {
    server.answer(answer);
    expect(await renderer().render(input)).toBeNull();
    expect(failures).toEqual([reason]);
  });

  it('given nothing listening, then null (network)', async () => {
    const gone = await startModelServer();
    const endpoint = gone.url;
    await gone.close();
    const r = createModelRenderer({ endpoint, timeoutMs: 1_000, promptVersion: 'v', env: {}, onFailure: (x) => failures.push(x) });
    expect(await r.render(input)).toBeNull();
    expect(failures).toEqual(['network']);
  });
});

describe('renderReport with the real model renderer', () => {
  it('given the endpoint answers, then rendered_by is model; given it times out, then template', async () => {
    const model = renderer({ timeoutMs: 150 });
    server.answer(json(200, { sections: modelSections() }));
    expect((await renderReport({ model }, { ...input, render: 'model', ceiling: 'model' }))?.rendered_by).toBe('model');
    server.answer(() => undefined);
    const fallback = await renderReport({ model }, { ...input, render: 'model', ceiling: 'model' });
    expect(fallback).toMatchObject({ rendered_by: 'template', prompt_version: null, lang: 'pt' });
    expect(failures).toEqual(['timeout']);
  });
});

describe('presentedValueRedactor', () => {
  it.each([
    ['Mail alice.wonder@EXAMPLE-mail.test now', 'Mail [EMAIL] now'],
    ['mailbox Alice.Wonder@ here', 'mailbox [EMAIL]@ here'],
    ['call 020 7946 0958 or +44 (20) 7946-0958', 'call [PHONE] or [PHONE]'],
    ['or 0044 20 79460958.', 'or [PHONE].'],
    ['annual Ann report', 'annual [NAME] report'],
    ['79460958 1 and 794609581 and 0958 are other runs', '[PHONE] 1 and 794609581 and 0958 are other runs'],
  ])('%s -> %s', (text, expected) => {
    const redact = presentedValueRedactor([
      { type: 'EMAIL', value: 'Alice.Wonder@example-mail.test' },
      { type: 'PHONE', value: '+44 20 7946 0958' },
      { type: 'NAME', value: 'Ann' },
    ]);
    expect(redact(text)).toBe(expected);
  });
});
