import {
  createPool,
  SchemaValidationError,
  sql,
  type DatabasePool,
  type DatabaseTransactionConnection,
  type Interceptor,
  type QueryResultRow,
} from 'slonik';
import { createPgDriverFactory } from '@slonik/pg-driver';
import { preparingDriverFactory } from './preparedStatements.js';
import { yieldingDriverFactory, yieldingPool } from './yielding.js';

/**
 * The Postgres pool and the one way a request touches tenant data:
 * `withTenant` opens a transaction, drops to the `tas_service` role and sets
 * the tenant and mode that row-level security keys on, all in one statement.
 */
export type Db = DatabasePool;
export type Tx = DatabaseTransactionConnection;
export type Mode = 'live' | 'test';
export interface TenantScope {
  tenantId: string | null;
  mode: Mode | null;
}

/** `sql.type(zodRow)` declares a row shape; this interceptor makes the declaration true. */
const resultParser: Interceptor = {
  name: 'result-parser',
  transformRow(ctx, query, row) {
    const parser = ctx.resultParser;
    if (!parser) return row;
    const parsed = parser.safeParse(row);
    if (!parsed.success) throw new SchemaValidationError(query, row, parsed.error.issues);
    return parsed.data as QueryResultRow;
  },
};

// Timestamps leave the database as ISO strings and 64-bit integers as numbers:
// that is the shape every response uses, so no row needs converting later.
const typeParsers = [
  { name: 'timestamptz', parse: (v: string) => new Date(v).toISOString() },
  { name: 'timestamp', parse: (v: string) => new Date(`${v}Z`).toISOString() },
  { name: 'int8', parse: (v: string) => Number.parseInt(v, 10) },
  { name: 'numeric', parse: (v: string) => Number.parseFloat(v) },
];

export interface PoolOptions {
  maximumPoolSize?: number;
  /** Milliseconds to wait for a connection before failing fast (no hang when Postgres is down). */
  connectionTimeout?: number;
  statementTimeout?: number;
  /**
   * Named prepared statements (src/platform/db/preparedStatements.ts); off behind a pooler
   * that does not keep them across transactions (TAS_DB_POOLER=transaction).
   */
  prepare?: boolean;
  /**
   * Send the statement and idle-in-transaction timeouts as start-up parameters.
   * Off behind a pooler, which refuses them (PgBouncer: 'unsupported startup
   * parameter'); the server's role settings or the pooler's own timeouts apply.
   */
  startupTimeouts?: boolean;
  /** Milliseconds an idle connection is kept (slonik's default, 5 s, when absent); its prepared statements go with it. */
  idleTimeout?: number;
}

/** The pool's options for what stands between it and PostgreSQL (TAS_DB_POOLER, docs/scaling.md). */
export function poolerOptions(pooler: 'none' | 'transaction'): PoolOptions {
  return pooler === 'transaction' ? { prepare: false, startupTimeouts: false } : {};
}

export async function createDb(url: string, opts: PoolOptions = {}): Promise<Db> {
  const pool = await createPool(url, {
    interceptors: [resultParser],
    typeParsers,
    // Statements the process repeats run as named prepared statements (src/platform/db/preparedStatements.ts);
    // every statement lets the running unit's scheduler slot go while it waits (src/platform/db/yielding.ts).
    driverFactory: yieldingDriverFactory(
      opts.prepare === false ? createPgDriverFactory() : preparingDriverFactory(createPgDriverFactory()),
    ),
    captureStackTrace: false,
    maximumPoolSize: opts.maximumPoolSize ?? 20,
    connectionTimeout: opts.connectionTimeout ?? 2000,
    connectionRetryLimit: 1,
    ...(opts.idleTimeout === undefined ? {} : { idleTimeout: opts.idleTimeout }),
    statementTimeout: opts.startupTimeouts === false ? 'DISABLE_TIMEOUT' : (opts.statementTimeout ?? 10_000),
    idleInTransactionSessionTimeout: opts.startupTimeouts === false ? 'DISABLE_TIMEOUT' : 10_000,
    // Slonik runs DISCARD ALL on every release by default: a round trip per checkout. Every
    // setting we make is transaction-local (set_config(..., true)), so there is nothing to discard.
    resetConnection: () => Promise.resolve(),
  });
  return yieldingPool(pool);
}

export async function scopeTransaction(tx: Tx, scope: TenantScope): Promise<void> {
  await tx.query(sql.unsafe`
    SELECT set_config('role', 'tas_service', true),
           set_config('tas.tenant_id', ${scope.tenantId ?? ''}, true),
           set_config('tas.mode', ${scope.mode ?? ''}, true)`);
}

/**
 * The service's own cross-tenant work (relay, audit batches, sealing,
 * provisioning, schedules) runs as `tas_system` (000009): chosen explicitly,
 * per transaction, so that nothing reaches every tenant's rows by accident.
 * Only the system login (tas_ops, 000035) may become it: the tenant pool's
 * login (tas_app) may not, so no statement on a request's connection can.
 */
export async function scopeSystem(tx: Tx): Promise<void> {
  await tx.query(sql.unsafe`SELECT set_config('role', 'tas_system', true)`);
}

// The system login's pool, beside the tenant pool it serves (bindSystemPool).
const systemPools = new WeakMap<Db, Db>();

/**
 * Gives the tenant pool `db` its cross-tenant companion: withSystem(db, ...)
 * then runs on `system` (the tas_ops login). Without one (a test's pool on
 * the owner's login) withSystem uses `db` itself.
 */
export function bindSystemPool(db: Db, system: Db): void {
  systemPools.set(db, system);
}

/** The pool cross-tenant work on behalf of `db` runs on. */
export function systemPoolOf(db: Db): Db {
  return systemPools.get(db) ?? db;
}

/** Runs `fn` in one transaction as the system role, on the system login's pool. */
export async function withSystem<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return systemPoolOf(db).transaction(async (tx) => {
    await scopeSystem(tx);
    return fn(tx);
  });
}

/** Runs `fn` in one transaction as the service role, seeing only `scope`'s rows. */
export async function withTenant<T>(db: Db, scope: TenantScope, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await scopeTransaction(tx, scope);
    return fn(tx);
  });
}
