import { builtInCatalogue } from '../checks/catalogue.js';
import { OPERATIONS } from '../schemas/operations.js';
import { buildOpenApiDocument } from './document.js';

/** The document as committed in docs/openapi.json: built-in checks, build `docs`, two-space JSON and a final newline. */
export async function checkedInDocument(): Promise<string> {
  const document = buildOpenApiDocument(OPERATIONS, { build: 'docs', checks: await builtInCatalogue() });
  return `${JSON.stringify(document, null, 2)}\n`;
}
