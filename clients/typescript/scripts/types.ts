import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

const HEADER = "// Generated from the service's OpenAPI document by clients/typescript/scripts/generate.ts; do not edit.\n";

/**
 * The TypeScript types of a document (openapi-typescript). Fields with a
 * default stay optional in requests (`defaultNonNullable: false`): the
 * server fills them in, so a caller need not.
 */
export async function typesFromDocument(document: Record<string, unknown>): Promise<string> {
  // The document is the service's own, validated by its tests against OpenAPI 3.1; here it is only handed on.
  const ast = await openapiTS(document as unknown as OpenAPI3, { defaultNonNullable: false, alphabetize: true });
  return HEADER + astToString(ast);
}
