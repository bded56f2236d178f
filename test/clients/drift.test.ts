import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typesFromDocument } from '../../clients/typescript/scripts/types.js';
import { startTestService, type TestService } from '../support/service.js';

/**
 * The client's types are what the served document says: regenerating them
 * from /openapi.json of a running service changes nothing. An operation or
 * schema changed without `npm run generate -w @tas/client` fails here.
 */
let ts: TestService;
beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
});
afterAll(async () => ts?.stop());

describe('clients/typescript', () => {
  it('src/schema.d.ts is exactly what the served document generates', async () => {
    const served = (await (await fetch(`${ts.base}/openapi.json`)).json()) as Record<string, unknown>;
    const committed = readFileSync(new URL('../../clients/typescript/src/schema.d.ts', import.meta.url), 'utf8');
    expect(await typesFromDocument(served)).toBe(committed);
  });
});
