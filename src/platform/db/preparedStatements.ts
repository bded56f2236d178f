import { createHash } from 'node:crypto';
import type { DriverFactory } from 'slonik';

/**
 * Named prepared statements for the statements the service runs again and
 * again (issue 15). slonik hands node-postgres every statement as unnamed, so
 * PostgreSQL parses, analyses and plans it on every call: about 0.8 ms of its
 * CPU per inquiry, most of it for the combined write of a command. A named
 * statement is parsed once per connection and its plan is cached (PostgreSQL
 * switches to a generic plan only when that is not costlier than the custom
 * ones, and re-plans on its own after DDL, a role or a search_path change).
 *
 * Which statements: a parameterised statement text becomes a named statement
 * once this process has run it REPEATS_BEFORE_PREPARING times, up to
 * MAX_PREPARED texts in all. The first rule keeps one-off statements
 * (migrations, admin reads) unnamed; the second bounds what every connection
 * holds, on both sides, whatever statement texts a future change builds.
 * Every setting the service makes is transaction-local and connections are
 * never reset with DISCARD ALL (src/platform/db/pool.ts), so a statement node-postgres
 * believes prepared always is.
 */
export const REPEATS_BEFORE_PREPARING = 3;
export const MAX_PREPARED = 64;
// The texts still being counted; cleared when full, so statements built with ever-new texts cost nothing lasting.
const MAX_COUNTED = 2048;

export interface StatementNamer {
  /** The statement's name when it should run prepared, else null. */
  nameFor(text: string): string | null;
  /** How many texts run prepared. */
  prepared(): number;
}

export function createStatementNamer(): StatementNamer {
  const names = new Map<string, string>();
  const counts = new Map<string, number>();
  return {
    nameFor(text) {
      const known = names.get(text);
      if (known !== undefined) return known;
      if (names.size >= MAX_PREPARED) return null;
      const seen = (counts.get(text) ?? 0) + 1;
      if (seen < REPEATS_BEFORE_PREPARING) {
        if (counts.size >= MAX_COUNTED) counts.clear();
        counts.set(text, seen);
        return null;
      }
      counts.delete(text);
      const name = `tas_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
      names.set(text, name);
      return name;
    },
    prepared: () => names.size,
  };
}

/**
 * Wraps slonik's node-postgres driver so that chosen statements run named.
 * The driver passes the statement straight to node-postgres's
 * `client.query(text, values)`, which also takes a `{ name, text }` query
 * config: that object is what goes through in place of the text.
 * test/db/preparedStatements.test.ts fails if a slonik upgrade stops passing
 * it on, by reading the session's pg_prepared_statements.
 */
export function preparingDriverFactory(inner: DriverFactory, namer: StatementNamer = createStatementNamer()): DriverFactory {
  return async (setup) => {
    const driver = await inner(setup);
    return {
      createClient: async () => {
        const client = await driver.createClient();
        return {
          ...client,
          query: (text, values) => {
            const name = values !== undefined && values.length > 0 ? namer.nameFor(text) : null;
            return client.query(name === null ? text : ({ name, text } as unknown as string), values);
          },
        };
      },
    };
  };
}
