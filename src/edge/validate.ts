import type { z } from 'zod';
import type { OperationSpec } from '../schemas/operation.js';
import type { Exchange } from './exchange.js';
import { ServiceProblem, ValidationFailure, zodToValidation } from '../platform/problems.js';
import { unstorableStrings } from '../platform/storable.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseParams(op: OperationSpec, raw: Record<string, string>): Record<string, string> {
  const unstorable = unstorableStrings(raw, ['path']);
  if (unstorable.length > 0) throw new ValidationFailure(unstorable);
  const bad = Object.entries(op.params ?? {})
    .filter(([name, format]) => format === 'uuid' && !UUID.test(raw[name] ?? ''))
    .map(([name]) => ({ loc: ['path', name], msg: 'Input should be a valid UUID', type: 'uuid_parsing' }));
  if (bad.length > 0) throw new ValidationFailure(bad);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) out[k] = op.params?.[k] === 'uuid' ? v.toLowerCase() : v;
  return out;
}

export function parseQuery(op: OperationSpec, rawQuery: string): unknown {
  const params = new URLSearchParams(rawQuery);
  const obj: Record<string, string> = {};
  for (const [k, v] of params) {
    if (k in obj)
      throw new ValidationFailure([{ loc: ['query', k], msg: 'Repeat the parameter at most once', type: 'duplicate_parameter' }]);
    obj[k] = v;
  }
  const unstorable = unstorableStrings(obj, ['query']);
  if (unstorable.length > 0) throw new ValidationFailure(unstorable);
  if (!op.query) {
    // Operations the contract says never answer 422 (health, registry, policy list) ignore a query string.
    if (!op.validation) return {};
    const extra = Object.keys(obj);
    if (extra.length > 0)
      throw new ValidationFailure(
        extra.map((k) => ({ loc: ['query', k], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' })),
      );
    return {};
  }
  return checked(op.query, obj, 'query');
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;.*)?$/i;

export function parseBody(op: OperationSpec, ex: Exchange, raw: Buffer | null): unknown {
  if (!raw || !op.body) return undefined;
  const type = ex.headers['content-type'];
  if (raw.length === 0) throw new ValidationFailure([{ loc: ['body'], msg: 'A JSON body is required', type: 'missing' }]);
  if (!type || !JSON_TYPE.test(type)) {
    throw new ServiceProblem('unsupported-media-type', 'Send the body as Content-Type: application/json.');
  }
  let data: unknown;
  try {
    data = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ValidationFailure([{ loc: ['body'], msg: 'The body is not valid JSON', type: 'json_invalid' }]);
  }
  return checked(op.body, data, 'body');
}

function checked(schema: z.ZodType, data: unknown, root: 'body' | 'query'): unknown {
  const unstorable = unstorableStrings(data, [root]);
  if (unstorable.length > 0) throw new ValidationFailure(unstorable);
  // reportInput lets us tell a missing field from a wrong one; the input itself is never sent back.
  const parsed = schema.safeParse(data, { reportInput: true });
  if (!parsed.success) throw zodToValidation(parsed.error, root);
  return parsed.data;
}
