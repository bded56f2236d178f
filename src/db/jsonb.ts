import { sql, type SerializableValue } from 'slonik';

/**
 * A value bound as jsonb. slonik types the value as its recursive
 * SerializableValue, which an interface (no index signature) never
 * satisfies even when every field is JSON; our rows are validated by their
 * zod schemas before they get here, so this one cast stands for all of them.
 */
export function jsonb(value: unknown) {
  return sql.jsonb(value as SerializableValue);
}
