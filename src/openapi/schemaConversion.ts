import { z } from 'zod';
import { apiComponents } from '../schemas/common.js';

/**
 * zod 4 schemas to OpenAPI 3.1 schema objects (JSON Schema 2020-12), with
 * every named shape (`component()` in src/schemas/common.ts) as a
 * `#/components/schemas/<id>` reference.
 *
 * One registry conversion covers the named shapes and the anonymous ones the
 * operations use directly (arrays of shapes, query objects), so a shape is
 * converted once and referenced everywhere. Conversion uses the *input* side
 * of each schema: request defaults show as `default` and do not make a field
 * required; response schemas carry no defaults or transforms, so their input
 * and output sides are the same.
 */

export type JsonSchema = Record<string, unknown>;

export const SCHEMA_REF_PREFIX = '#/components/schemas/';
const INLINE_PREFIX = '__inline';
const SHARED_PREFIX = `${SCHEMA_REF_PREFIX}__shared#/$defs/`;

export interface ConvertedSchemas {
  /** Every named shape, keyed by id (not yet pruned to what the document uses). */
  components: Record<string, JsonSchema>;
  /** The schema object for a root: a `$ref` for a named shape, else its converted body. */
  schemaFor(schema: z.ZodType): JsonSchema;
}

export function componentId(schema: z.ZodType): string | undefined {
  return apiComponents.get(schema)?.id;
}

export function convertSchemas(roots: readonly z.ZodType[]): ConvertedSchemas {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of [...apiComponents._idmap.entries()].sort(([a], [b]) => compare(a, b))) {
    registry.add(schema, { id });
  }
  const inlineIds = new Map<z.ZodType, string>();
  for (const schema of roots) {
    if (componentId(schema) !== undefined || inlineIds.has(schema)) continue;
    const id = `${INLINE_PREFIX}${inlineIds.size}`;
    inlineIds.set(schema, id);
    registry.add(schema, { id });
  }

  const { schemas } = z.toJSONSchema(registry, {
    io: 'input',
    uri: (id) => SCHEMA_REF_PREFIX + id,
    override: ({ jsonSchema }) => dropSafeIntegerBounds(jsonSchema as JsonSchema),
  });

  const converted: Record<string, JsonSchema> = {};
  for (const [id, body] of Object.entries(schemas)) {
    if (id === '__shared') continue;
    const { $schema: _s, $id: _i, ...rest } = body as JsonSchema;
    converted[id] = rest;
  }
  // Shapes zod had to extract without an id of ours (a schema some other
  // module named, or a cycle) become ordinary components.
  const shared = ((schemas as Record<string, JsonSchema>).__shared?.$defs ?? {}) as Record<string, JsonSchema>;
  for (const [id, body] of Object.entries(shared)) converted[id] = body;

  const inlineBodies = new Map<string, JsonSchema>();
  for (const id of inlineIds.values()) inlineBodies.set(id, converted[id] ?? {});
  const fix = (node: unknown): unknown => fixRefs(node, inlineBodies);

  const components: Record<string, JsonSchema> = {};
  for (const [id, body] of Object.entries(converted)) {
    if (!id.startsWith(INLINE_PREFIX)) components[id] = fix(body) as JsonSchema;
  }
  return {
    components,
    schemaFor(schema) {
      const named = componentId(schema);
      if (named !== undefined) return { $ref: SCHEMA_REF_PREFIX + named };
      const id = inlineIds.get(schema);
      if (id === undefined) throw new Error('schemaFor: schema was not among the conversion roots');
      return fix(structuredClone(inlineBodies.get(id) ?? {})) as JsonSchema;
    },
  };
}

/** `z.int()` carries ±2^53-1 as bounds; they say nothing a reader needs. */
function dropSafeIntegerBounds(json: JsonSchema): void {
  if (json.minimum === Number.MIN_SAFE_INTEGER) delete json.minimum;
  if (json.maximum === Number.MAX_SAFE_INTEGER) delete json.maximum;
}

/**
 * Rewrites references zod made to places that do not exist in our document:
 * an anonymous root reached from inside another schema is inlined, and a
 * `__shared` definition points at the component it became.
 */
function fixRefs(node: unknown, inline: Map<string, JsonSchema>): unknown {
  if (Array.isArray(node)) return node.map((n) => fixRefs(n, inline));
  if (node === null || typeof node !== 'object') return node;
  const obj = node as JsonSchema;
  const ref = obj.$ref;
  if (typeof ref === 'string') {
    const inlined = ref.startsWith(SCHEMA_REF_PREFIX) ? inline.get(ref.slice(SCHEMA_REF_PREFIX.length)) : undefined;
    if (inlined) return fixRefs(structuredClone(inlined), inline);
    if (ref.startsWith(SHARED_PREFIX)) return { ...obj, $ref: SCHEMA_REF_PREFIX + ref.slice(SHARED_PREFIX.length) };
  }
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(obj)) out[k] = fixRefs(v, inline);
  return out;
}

/** Code-point order, so output does not depend on the locale the process runs in. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Every `#/components/schemas/<id>` referenced anywhere under `node`. */
export function schemaRefs(node: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(node)) {
    for (const n of node) schemaRefs(n, into);
  } else if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(SCHEMA_REF_PREFIX)) into.add(v.slice(SCHEMA_REF_PREFIX.length));
      else schemaRefs(v, into);
    }
  }
  return into;
}
