import { sql } from 'slonik';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, poolerOptions, withTenant } from '../../src/platform/db/pool.js';
import { serviceLoginUrl } from '../support/service.js';
import { startPgBouncer, type PgBouncer } from '../../scripts/lib/pgbouncer.js';
import {
  healthzNamesTopology,
  inquiriesAndTheirWebhooks,
  monitorRescans,
  revocationReachesSecondEdge,
  sessionOnSecondEdge,
  startFlows,
  type Flows,
} from './flows.js';

/**
 * The service's logins (tas_app, and the cross-tenant one beside it) reach
 * PostgreSQL only through PgBouncer in transaction pooling with three server
 * connections per login, TAS_DB_POOLER=transaction; migrations and the
 * test's own reads go straight to the server. Two edges and the workers run
 * the main flows, so client connections keep landing on server connections
 * another tenant's transaction used a moment before.
 */
let bouncer: PgBouncer;
let database = '';
let flows: Flows;

beforeAll(async () => {
  bouncer = await startPgBouncer({ poolSize: 3 });
  flows = await startFlows(
    'single',
    'Pooled Intel Ltd',
    { TAS_DB_POOLER: 'transaction' },
    { throughPooler: (url) => bouncer.through(url) },
  );
  database = new URL(flows.ts.dbUrl).pathname.slice(1);
}, 60_000);

afterAll(async () => {
  await flows?.stop();
  await bouncer?.stop();
});

describe('behind PgBouncer in transaction pooling', () => {
  it('the service logs in through the bouncer', () => {
    expect(new URL(flows.ts.config.DATABASE_URL).port).toBe(String(bouncer.port));
  });

  it('/healthz on both edges', () => healthzNamesTopology(flows.c));

  it("an inquiry, a revision on the second edge's SSE and their webhook deliveries", () => inquiriesAndTheirWebhooks(flows.c), 60_000);

  it('a WebSocket session on the second edge', () => sessionOnSecondEdge(flows.c), 30_000);

  it('a key revoked on one edge is refused on the other', () => revocationReachesSecondEdge(flows.c), 30_000);

  it("a monitor's rescans", () => monitorRescans(flows.c), 60_000);

  it('the tenant context ends with its transaction: the next transaction on the same server connection has none', async () => {
    // One server connection for this login and database: every transaction below runs on it.
    const single = await startPgBouncer({ poolSize: 1 });
    const db = await createDb(single.through(serviceLoginUrl(flows.ts.dbUrl)), { ...poolerOptions('transaction'), maximumPoolSize: 4 });
    try {
      const Setting = z.object({ tenant: z.string().nullable(), mode: z.string().nullable(), role: z.string(), pid: z.number() });
      const read = sql.type(
        Setting,
      )`SELECT nullif(current_setting('tas.tenant_id', true), '') AS tenant, nullif(current_setting('tas.mode', true), '') AS mode, current_user AS role, pg_backend_pid() AS pid`;
      const inside = await withTenant(db, { tenantId: flows.ts.tenant.tenant_id, mode: 'test' }, (tx) => tx.one(read));
      expect(inside).toMatchObject({ tenant: flows.ts.tenant.tenant_id, mode: 'test', role: 'tas_service' });
      const after = await Promise.all([db.one(read), db.one(read), db.transaction((tx) => tx.one(read))]);
      for (const row of after) expect(row).toEqual({ tenant: null, mode: null, role: 'tas_app', pid: inside.pid });
    } finally {
      await db.end();
      await single.stop();
    }
  });

  it('the flows went through the bouncer', async () => {
    expect(await bouncer.transactions(database)).toBeGreaterThan(50);
  });
});
