import { writeFileSync } from 'node:fs';
import { typesFromDocument } from './types.js';

/**
 * Regenerates src/schema.d.ts from the service's OpenAPI document: from a
 * running service (`npm run generate -- http://127.0.0.1:8080/openapi.json`)
 * or, with no argument, from the document the service's own code builds,
 * which is what it serves. The drift test in the service's suite
 * (test/clients/drift.test.ts) fails when the committed file differs from
 * what this writes.
 */
const source = process.argv[2];
const document = source ? ((await (await fetch(source)).json()) as Record<string, unknown>) : await builtDocument();
writeFileSync(new URL('../src/schema.d.ts', import.meta.url), await typesFromDocument(document));
console.log(`wrote src/schema.d.ts from ${source ?? "the service's own document"}`);

async function builtDocument(): Promise<Record<string, unknown>> {
  const { buildOpenApiDocument } = await import('../../../src/openapi/document.js');
  const { OPERATIONS } = await import('../../../src/schemas/operations.js');
  return buildOpenApiDocument(OPERATIONS, { build: 'client', checks: [] }) as Record<string, unknown>;
}
