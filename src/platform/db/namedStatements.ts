import pg from 'pg';
import type { PoolOptions } from './pool.js';
import { yieldDuring } from '../unitContext.js';

/**
 * The one exception to slonik as the query layer (issue 37): the statements
 * run on every request that matter most, sent through node-postgres itself as
 * named prepared statements. Measured with `npx tsx bench/oneCallDriver.ts`:
 * a call sending tas_inquiry_open's 13-17 KB of jsonb costs the service about
 * 0.65-0.70 ms of CPU through slonik's pool (its connection handling,
 * interceptors and result parsing) and 0.28-0.29 ms through pg alone: about
 * 0.4 ms of the 2-6 ms an inquiry costs the service in all. Everything else
 * stays on slonik (src/platform/db/pool.ts); a statement joins this pool
 * only with such a measurement written beside it (docs/design-decisions.md).
 *
 * The pool logs in as the tenant pool does (tas_app), with the same start-up
 * timeouts. Its connections are opened on demand and then KEPT, idle or not
 * (`min` = `max`): a connection's first call of tas_inquiry_open costs its
 * new backend 150-250 ms (the function compiled, each of its statements
 * planned, the catalogues and policies read), and pg's pool hands out the
 * connection released last, so at a moderate rate one or two connections
 * carried the calls, the others idled past a 5-second timeout and closed,
 * and the next burst opened cold ones: a cluster of 150-250 ms calls every
 * five seconds at 100 inquiries a second (PostgreSQL's
 * log_min_duration_statement, 2026-11-27, bench/README). An edge warms
 * them all before it listens (`rehearse`, TAS_WARM_STATEMENTS). At most ten
 * connections stay open per process. A connection that breaks (PostgreSQL
 * restarted) is dropped and the next call opens another. Behind a transaction
 * pooler the statements go unnamed, as slonik's do there (poolerOptions).
 * Each statement is its own implicit transaction: the function it calls
 * scopes itself (role, tenant and mode, all transaction-local), so nothing
 * outlives the call on the connection, and a statement rolled back by a
 * serialization failure or a deadlock is run again, as slonik runs a
 * transaction again.
 */
export interface NamedStatement {
  /** Unique per text: PostgreSQL keeps one prepared statement per name and connection. */
  name: string;
  text: string;
}

export interface StatementPool {
  run<Row>(statement: NamedStatement, values: unknown[]): Promise<Row[]>;
  /**
   * Opens every connection the pool keeps and runs `statement` once on each
   * inside a transaction that is rolled back, whatever it did: the backend
   * compiles and plans what the statement runs, and nothing it wrote stays.
   * Answers how many connections ran it; never throws.
   */
  rehearse(statement: NamedStatement, values: () => unknown[]): Promise<number>;
  end(): Promise<void>;
}

// Fewer than the tenant pool's 20: only the one call of a new subject's inquiry runs here, once per inquiry.
const STATEMENT_POOL_SIZE = 10;

export const STATEMENT_POOL_APPLICATION = 'tas-statements';

// As slonik does for a transaction: a serialization failure or a deadlock (SQLSTATE class 40) rolled
// the whole statement back, so running it again writes its rows once.
const MAX_ATTEMPTS = 5;
const isTransactionRollback = (error: unknown) => {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('40');
};

export function createStatementPool(url: string, opts: PoolOptions = {}): StatementPool {
  const timeouts =
    opts.startupTimeouts === false
      ? {}
      : { statement_timeout: opts.statementTimeout ?? 10_000, idle_in_transaction_session_timeout: 10_000 };
  const size = opts.maximumPoolSize ?? STATEMENT_POOL_SIZE;
  const pool = new pg.Pool({
    connectionString: url,
    // How an operator tells these connections apart in pg_stat_activity.
    application_name: STATEMENT_POOL_APPLICATION,
    max: size,
    connectionTimeoutMillis: opts.connectionTimeout ?? 2000,
    // Closes idle connections above `min` only, and there are none.
    min: size,
    idleTimeoutMillis: opts.idleTimeout ?? 5000,
    ...timeouts,
  });
  // An idle connection that breaks (PostgreSQL restarted) is dropped by the pool; the next call opens another.
  pool.on('error', () => undefined);
  const named = opts.prepare !== false;
  const queryOf = (statement: NamedStatement, values: unknown[]) =>
    named ? { name: statement.name, text: statement.text, values } : { text: statement.text, values };
  return {
    async run<Row>(statement: NamedStatement, values: unknown[]): Promise<Row[]> {
      const query = queryOf(statement, values);
      for (let attempt = 1; ; attempt += 1) {
        try {
          // The running unit's scheduler slot goes to another turn while the statement runs (issue 48).
          return (await yieldDuring(pool.query(query))).rows as Row[];
        } catch (error) {
          if (attempt >= MAX_ATTEMPTS || !isTransactionRollback(error)) throw error;
        }
      }
    },
    async rehearse(statement, values) {
      // All checked out at once, so each rehearsal lands on a connection of its own.
      const clients = await Promise.allSettled(Array.from({ length: size }, () => pool.connect()));
      const rehearsed = await Promise.all(
        clients.map(async (checkout) =>
          checkout.status === 'fulfilled' ? rehearseOn(checkout.value, queryOf(statement, values())) : false,
        ),
      );
      return rehearsed.filter(Boolean).length;
    },
    end: () => pool.end(),
  };
}

/** One rehearsal on one connection; a connection whose rollback failed is closed, not returned to the pool. */
async function rehearseOn(client: pg.PoolClient, query: pg.QueryConfig): Promise<boolean> {
  try {
    await client.query('BEGIN');
    const ran = await client.query(query).then(
      () => true,
      () => false,
    );
    await client.query('ROLLBACK');
    client.release();
    return ran;
  } catch (error) {
    client.release(error instanceof Error ? error : true);
    return false;
  }
}
