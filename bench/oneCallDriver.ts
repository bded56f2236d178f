import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'slonik';
import { z } from 'zod';
import { jsonb } from '../src/platform/db/jsonb.js';
import { createDb } from '../src/platform/db/pool.js';

/**
 * What the query layer costs the one call of a new subject's inquiry
 * (issue 37): the service's CPU per call, sending a payload of the size
 * tas_inquiry_open receives (about 17 KB of jsonb) to a function that answers
 * a small jsonb, one call at a time, (a) through slonik on the service's
 * pool (createDb: the result parser, the preparing driver: a named statement
 * after three runs) and (b) through node-postgres alone, as a named prepared
 * statement. Only client CPU is compared; the server's work is the same.
 *
 *   npx tsx bench/oneCallDriver.ts [CALLS]      (default 5,000 each way, after 500 to warm up)
 */
const CALLS = Number(process.argv[2] ?? 5000);
const WARM = 500;
const ADMIN = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const payload = {
  inquiry: { id: 'x', request: { facts: 'y'.repeat(1300) } },
  assessments: [
    { inputs: { evidence: 'e'.repeat(2900) }, findings: { findings: Array.from({ length: 23 }, (_, i) => ({ i, s: 'f'.repeat(350) })) } },
  ],
  events: [{ type: 'AssessmentIssued', payload: { p: 'a'.repeat(700) } }],
};
const Answer = z.object({ status: z.literal('written'), events: z.array(z.tuple([z.number(), z.string()])) });

async function cpuPerCall(run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < WARM; i += 1) await run();
  const before = process.cpuUsage();
  for (let i = 0; i < CALLS; i += 1) await run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / CALLS;
}

async function main(): Promise<void> {
  const name = `tas_bench_driver_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = ADMIN.replace(/\/[^/]*$/, `/${name}`);
  try {
    const setup = new pg.Client({ connectionString: url });
    await setup.connect();
    await setup.query(`CREATE FUNCTION bench_open(p jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
      BEGIN RETURN jsonb_build_object('status', 'written', 'events', jsonb_build_array(jsonb_build_array(1, now()::text))); END $$`);
    await setup.end();
    const db = await createDb(url, { maximumPoolSize: 1 });
    const viaSlonik = await cpuPerCall(() =>
      db.oneFirst(sql.type(z.object({ answer: Answer }))`SELECT bench_open(${jsonb(payload)}) AS answer`),
    );
    await db.end();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const query = { name: 'bench_open', text: 'SELECT bench_open($1::jsonb) AS answer' };
    const viaPg = await cpuPerCall(async () => {
      const result = await client.query<{ answer: unknown }>({ ...query, values: [JSON.stringify(payload)] });
      return Answer.parse(result.rows[0]!.answer);
    });
    await client.end();
    console.log(
      JSON.stringify({ calls: CALLS, payload_bytes: JSON.stringify(payload).length, cpu_ms_per_call: { slonik: viaSlonik, pg: viaPg } }),
    );
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
