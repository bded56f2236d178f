import { describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { BaseResolver, createConfig, lintDocument, makeDocumentFromString } from '@redocly/openapi-core';
import { buildOpenApiDocument } from '../../src/openapi/document.js';
import { docsAssetPath, renderDocsPage } from '../../src/openapi/docsPage.js';
import { OPERATIONS } from '../../src/schemas/operations.js';
import { RULES } from '../../src/platform/rules.js';

/** Every method and path of SPEC.md "Endpoints", plus the document and its page. */
/** Operations beyond SPEC.md's tables, each saying so in its description. */
const EXTENSIONS: readonly [string, string][] = [
  ['get', '/v1/admin/audit/export'],
  ['get', '/v1/admin/keys'],
  ['get', '/v1/cases/{case_id}/exports/{export_id}'],
  ['get', '/v1/cases/{case_id}/exports/{export_id}/bundle'],
  ['get', '/.well-known/tas-export-keys.json'],
  ['get', '/v1/admin/webhooks'],
  ['get', '/v1/admin/webhooks/{webhook_id}'],
  ['delete', '/v1/admin/webhooks/{webhook_id}'],
  ['get', '/v1/admin/webhooks/{webhook_id}/deliveries'],
  ['post', '/v1/admin/keys/{key_id}/rotate'],
  ['put', '/v1/material/{material_id}/content'],
  ['patch', '/v1/admin/webhooks/{webhook_id}'],
  ['post', '/v1/admin/webhooks/{webhook_id}/rotate-secret'],
  ['post', '/v1/admin/webhooks/{webhook_id}/deliveries/{message_id}/redeliver'],
  ['post', '/v1/inquiries/{inquiry_id}/events/tickets'],
  ['post', '/v1/monitors/{monitor_id}/events/tickets'],
  ['post', '/v1/cases/{case_id}/events/tickets'],
  ['get', '/v1/cases'],
  ['get', '/v1/entities'],
];

const EXPECTED: readonly [string, string][] = [
  ['post', '/v1/inquiries'],
  ['get', '/v1/inquiries/{inquiry_id}'],
  ['get', '/v1/inquiries/{inquiry_id}/events'],
  ['post', '/v1/observations'],
  ['post', '/v1/observations/batch'],
  ['post', '/v1/outcomes'],
  ['post', '/v1/outcomes/batch'],
  ['post', '/v1/material'],
  ['get', '/v1/material/{material_id}'],
  ['get', '/v1/material/{material_id}/extraction'],
  ['post', '/v1/cases'],
  ['get', '/v1/cases/{case_id}'],
  ['post', '/v1/cases/{case_id}/members'],
  ['post', '/v1/cases/{case_id}/intake'],
  ['post', '/v1/cases/{case_id}/expand'],
  ['post', '/v1/cases/{case_id}/assertions'],
  ['post', '/v1/cases/{case_id}/hold'],
  ['post', '/v1/cases/{case_id}/release'],
  ['post', '/v1/cases/{case_id}/review'],
  ['post', '/v1/cases/{case_id}/export'],
  ['post', '/v1/cases/{case_id}/close'],
  ['get', '/v1/cases/{case_id}/graph'],
  ['get', '/v1/cases/{case_id}/timeline'],
  ['get', '/v1/cases/{case_id}/events'],
  ['post', '/v1/monitors'],
  ['get', '/v1/monitors/{monitor_id}'],
  ['delete', '/v1/monitors/{monitor_id}'],
  ['get', '/v1/monitors/{monitor_id}/events'],
  ['post', '/v1/sessions'],
  ['post', '/v1/sessions/{session_id}/close'],
  ['get', '/v1/entities/{entity_id}'],
  ['get', '/v1/entities/{entity_id}/ledger'],
  ['get', '/v1/registry/artifact-types'],
  ['get', '/v1/registry/intents'],
  ['get', '/v1/registry/purposes'],
  ['post', '/v1/admin/keys'],
  ['delete', '/v1/admin/keys/{key_id}'],
  ['get', '/v1/admin/policies'],
  ['post', '/v1/admin/policies'],
  ['post', '/v1/admin/webhooks'],
  ['get', '/v1/admin/audit'],
  ['get', '/v1/health'],
  ['get', '/healthz'],
  ['get', '/openapi.json'],
  ['get', '/docs'],
];

/** Success status per SPEC.md, for the operations that do not answer 200. */
const NON_200: Record<string, number> = {
  'post /v1/observations': 201,
  'post /v1/observations/batch': 201,
  'post /v1/outcomes': 201,
  'post /v1/outcomes/batch': 201,
  'post /v1/material': 201,
  'post /v1/cases': 201,
  'post /v1/cases/{case_id}/intake': 201,
  'post /v1/cases/{case_id}/expand': 202,
  'post /v1/cases/{case_id}/assertions': 201,
  'post /v1/cases/{case_id}/export': 202,
  'post /v1/monitors': 201,
  'delete /v1/monitors/{monitor_id}': 204,
  'post /v1/sessions': 201,
  'post /v1/sessions/{session_id}/close': 202,
  'post /v1/admin/keys': 201,
  'delete /v1/admin/keys/{key_id}': 204,
  'post /v1/admin/policies': 201,
  'post /v1/admin/webhooks': 201,
};

/** SPEC.md: every operation can answer 422 except these. */
const NO_422 = new Set([
  'get /v1/registry/artifact-types',
  'get /v1/registry/intents',
  'get /v1/registry/purposes',
  'get /v1/admin/policies',
  'get /v1/health',
  'get /healthz',
  'get /openapi.json',
  'get /docs',
]);

type Doc = {
  openapi: string;
  info: { version: string; description: string };
  paths: Record<
    string,
    Record<
      string,
      { responses: Record<string, unknown>; security: unknown[]; parameters?: { name: string; in: string; schema: { format?: string } }[] }
    >
  >;
  components: { schemas: Record<string, unknown> };
  'x-rules': Record<string, string>;
};

const doc = buildOpenApiDocument(OPERATIONS, { build: 'test-build' }) as unknown as Doc;

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1.0 at version 0.1.0a0', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('0.1.0a0');
  });

  it('passes the OpenAPI 3.1 schema validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lints clean under the Redocly recommended ruleset', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const document = makeDocumentFromString(JSON.stringify(doc), '/openapi.json');
    const problems = await lintDocument({ document, config, externalRefResolver: new BaseResolver(config.resolve) });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
    // Warnings we accept, each for a reason; anything new must be looked at.
    // The open operations take no key, no parameters and no body, so there is
    // no 4xx they can answer: inventing one to please the linter would be a lie.
    const warnings = problems.filter((p) => p.severity === 'warn').map((p) => `${p.ruleId} at ${p.location[0]?.pointer}`);
    expect(warnings.sort()).toEqual([
      'operation-4xx-response at #/paths/~1.well-known~1tas-export-keys.json/get/responses',
      'operation-4xx-response at #/paths/~1docs/get/responses',
      'operation-4xx-response at #/paths/~1healthz/get/responses',
      'operation-4xx-response at #/paths/~1openapi.json/get/responses',
    ]);
  });

  it('has every SPEC.md operation, and beside them only the extensions that say they are', () => {
    const actual = Object.entries(doc.paths)
      .flatMap(([path, item]) => Object.keys(item).map((m) => `${m} ${path}`))
      .sort();
    expect(actual).toEqual([...EXPECTED, ...EXTENSIONS].map(([m, p]) => `${m} ${p}`).sort());
    expect(OPERATIONS).toHaveLength(EXPECTED.length + EXTENSIONS.length);
    for (const [method, path] of EXTENSIONS)
      expect((doc.paths[path]![method] as { description?: string }).description).toMatch(/extension/i);
  });

  it('documents the success status, 422 where SPEC allows it, and the audit header on every response', () => {
    for (const [method, path] of EXPECTED) {
      const key = `${method} ${path}`;
      const op = doc.paths[path]![method]!;
      const success = String(NON_200[key] ?? 200);
      expect(op.responses[success], key).toBeDefined();
      expect('422' in op.responses, key).toBe(!NO_422.has(key));
      const headers = (op.responses[success] as { headers: Record<string, unknown> }).headers;
      expect(Object.keys(headers), key).toContain('X-Service-Audit-Id');
    }
  });

  it('keys every operation but /healthz, /openapi.json and /docs', () => {
    for (const [method, path] of EXPECTED) {
      const open = ['/healthz', '/openapi.json', '/docs'].includes(path);
      const op = doc.paths[path]![method]!;
      expect(op.security, `${method} ${path}`).toEqual(open ? [] : [{ bearerAuth: [] }]);
      if (!open) expect(op.responses['401'], `${method} ${path}`).toBeDefined();
    }
  });

  it('gives uuid path parameters the uuid format, and material_id and a webhook message_id none', () => {
    const params = Object.values(doc.paths)
      .flatMap((item) => Object.values(item))
      .flatMap((op) => op.parameters ?? [])
      .filter((p) => p.in === 'path');
    for (const p of params) expect(p.schema.format, p.name).toBe(p.name === 'material_id' || p.name === 'message_id' ? undefined : 'uuid');
  });

  it('publishes the rule catalog', () => {
    expect(doc['x-rules']).toEqual(RULES);
    for (const id of Object.keys(RULES)) expect(doc.info.description).toContain(`\`${id}\``);
  });

  it('has the event payloads under components', () => {
    for (const name of ['EventEnvelope', 'AssessmentIssued', 'AssessmentRevised', 'InquiryConcluded', 'MonitorTriggered', 'CaseChanged']) {
      expect(doc.components.schemas[name], name).toBeDefined();
    }
  });

  it('is deterministic', () => {
    const again = buildOpenApiDocument(OPERATIONS, { build: 'test-build' });
    expect(JSON.stringify(again)).toBe(JSON.stringify(doc));
  });
});

describe('the reference page', () => {
  it('loads swagger-ui from our own assets only', () => {
    const html = renderDocsPage('/openapi.json');
    expect(html).toContain('/docs/assets/swagger-ui-bundle.js');
    expect(html).toContain('"/openapi.json"');
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('escapes the spec URL', () => {
    expect(renderDocsPage('</script><script>alert(1)</script>')).not.toContain('</script><script>alert');
  });

  it('resolves the three assets and refuses anything else', () => {
    for (const name of ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js']) {
      expect(docsAssetPath(name)).toMatch(new RegExp(`swagger-ui-dist[\\\\/]${name.replace(/\./g, '\\.')}$`));
    }
    for (const name of ['../package.json', 'index.html', '/etc/passwd', 'swagger-ui.css/../../x', '']) {
      expect(docsAssetPath(name), name).toBeNull();
    }
  });
});
