import { sql, type FragmentSqlToken } from 'slonik';

/**
 * A value bound as jsonb: serialised with JSON.stringify and cast by
 * PostgreSQL. slonik's own `sql.jsonb` serialises with a stable, key-sorting
 * stringify that costs several times more, for an order jsonb throws away
 * (it stores keys in its own order). Rows are validated by their zod schemas
 * before they get here, so they are plain JSON; a value JSON cannot hold
 * (undefined, a function) is refused rather than bound as NULL.
 */
export function jsonb(value: unknown): FragmentSqlToken {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError('A jsonb value must be representable as JSON.');
  return sql.fragment`${text}::jsonb`;
}
