import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInCatalogue, catalogueOf, renderCatalogueMarkdown, type CatalogueRow } from '../../src/checks/catalogue.js';
import { STRENGTHS } from '../../src/scoring/index.js';
import { startTestService, type TestService } from '../support/service.js';

/**
 * The published table of checks (docs/checks.md and the OpenAPI document's
 * `x-check-catalogue`) is generated from the checks' declarations; these
 * tests fail when the committed table and the code disagree, and when a
 * declaration is incomplete.
 */

let rows: CatalogueRow[];
beforeAll(async () => {
  rows = await builtInCatalogue();
});

describe('the check catalogue', () => {
  it('given the checks in the code, then docs/checks.md is exactly what `npm run docs:checks` writes', async () => {
    const committed = await readFile(new URL('../../docs/checks.md', import.meta.url), 'utf8');
    // When this fails: run `npm run docs:checks` and commit docs/checks.md.
    expect(committed).toBe(renderCatalogueMarkdown(rows));
  });

  it('given every built-in check, then it says what it looks at and declares at least one answer', () => {
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) {
      expect(row.looks_at.trim(), row.id).not.toBe('');
      expect(row.answers.length, row.id).toBeGreaterThan(0);
    }
  });

  it('given every declaration, then a scored answer has one of the three strengths and every answer a reason', () => {
    for (const row of rows) {
      for (const answer of row.answers) {
        expect(answer.reason.trim(), `${row.id} ${answer.kind}/${answer.disposition}`).not.toBe('');
        if (answer.disposition === 'neutral') expect(answer.strength).toBeUndefined();
        else expect(STRENGTHS).toContain(answer.strength);
      }
    }
  });

  it('given one check, then no (kind, disposition) is declared twice', () => {
    for (const row of rows) {
      const keys = row.answers.map((a) => `${a.kind}/${a.disposition}`);
      expect(new Set(keys).size, row.id).toBe(keys.length);
    }
  });

  it('given every data source, then it names its version and licence', () => {
    for (const source of rows.flatMap((row) => row.sources)) {
      expect(source.version.trim()).not.toBe('');
      expect(source.licence.trim()).not.toBe('');
    }
  });
});

describe('the check catalogue in the served OpenAPI document', () => {
  let ts: TestService;
  beforeAll(async () => {
    ts = await startTestService();
  });
  afterAll(async () => {
    await ts?.stop();
  });

  it('given a running service, then /openapi.json carries x-check-catalogue for exactly the checks it runs', async () => {
    const res = await fetch(`${ts.base}/openapi.json`);
    const doc = (await res.json()) as { 'x-check-catalogue': CatalogueRow[] };
    expect(doc['x-check-catalogue']).toEqual(JSON.parse(JSON.stringify(catalogueOf(ts.service.core.checks))));
    expect(doc['x-check-catalogue'].map((row) => row.id)).toContain('disposable_email');
  });
});
