import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { json, providersFile, startProviderFixture, type ProviderFixture } from '../inquiries/support.js';
import { ownerClient } from '../support/database.js';
import { startTestService, type TestService } from '../support/service.js';
import { toBullJobId } from '../../actors/relay.js';
import { call, ledgerCount, WATCH } from './support.js';

/**
 * A worker process killed (SIGKILL) while a rescan waits on its provider,
 * another started: every scheduled run still ends exactly once, as one
 * inquiry with exactly one ledger entry (the answer changed) or as one
 * unchanged rescan (issue 18), none lost and none doubled, each audited once.
 * The provider's answer alternates, so most runs change and open an
 * inquiry; a run retried after the kill may meet the answer it had before.
 * The edge runs in-process without workers; the workers are `tas worker`
 * child processes on the same database and Redis prefix.
 */
let ts: TestService;
let provider: ProviderFixture;
let owner: pg.Client;
let providersPath = '';
let pending = 0;
const children: ChildProcess[] = [];

beforeAll(async () => {
  provider = await startProviderFixture();
  // Slow enough that a kill is likely to land mid-inquiry, well inside the 3 s deadline.
  let risk: 'low' | 'high' = 'low';
  provider.handler = (_req, res) => {
    pending += 1;
    const answer = risk;
    risk = risk === 'low' ? 'high' : 'low';
    setTimeout(() => {
      pending -= 1;
      json(res, 200, { risk: answer });
    }, 400);
  };
  providersPath = providersFile(provider.url, 'Crashproof Intel Ltd', 5000);
  ts = await startTestService({ TAS_MIN_MONITOR_CADENCE_SECONDS: '1', TAS_PROVIDERS_FILE: providersPath }, { workers: false });
  owner = await ownerClient(ts.dbUrl);
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await owner?.end();
  await ts?.stop();
  await provider?.close();
});

/** `tas worker` on the test's database and Redis prefix; resolves once it says it runs. */
async function startWorker(): Promise<ChildProcess> {
  const c = ts.config;
  const child = spawn(process.execPath, ['bin/tas.js', 'worker'], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: ts.dbUrl,
      REDIS_URL: c.REDIS_URL,
      TAS_REDIS_PREFIX: c.TAS_REDIS_PREFIX,
      TAS_KEY_PEPPER: c.keyPepper,
      TAS_PROVIDERS_FILE: providersPath,
      TAS_DNS_SERVERS: 'off',
      TAS_RDAP_BASE_URL: 'off',
      LOG_LEVEL: 'warn',
      TAS_SPOOL_DIR: `/tmp/tas-spool-${randomBytes(4).toString('hex')}`,
      TAS_MIN_MONITOR_CADENCE_SECONDS: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += String(chunk);
      if (output.includes('tas workers running')) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`worker exited with ${code} before it ran:\n${output}`)));
  });
  return child;
}

/** The runs the monitor machine has accepted and not yet seen finish. */
async function inFlight(monitorId: string): Promise<string[]> {
  const { rows } = await owner.query(`SELECT snapshot->'context'->'inFlight' AS f FROM actors WHERE id = $1`, [monitorId]);
  return rows[0].f as string[];
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));
}

interface RunRow {
  key: string;
  inquiries: number;
  ledger: number;
}

/** The monitor's completed ticks (each one a scheduled run) and, per run id, its inquiries and ledger entries. */
async function runsOf(id: string): Promise<{ ticks: string[]; byRun: Map<string, RunRow> }> {
  const queue = ts.service.core.queues.queue('monitors');
  const ofMonitor = (j: { id?: string | undefined }) => j.id!.startsWith(`repeat:${id}:`);
  expect((await queue.getJobs(['failed', 'active'], 0, -1)).filter(ofMonitor)).toEqual([]);
  const ticks = (await queue.getJobs(['completed'], 0, -1)).filter((j) => j.name === 'monitor.rescan' && ofMonitor(j)).map((j) => j.id!);
  const { rows } = await owner.query(
    `SELECT k.key, count(DISTINCT i.id)::int AS inquiries, count(a.id)::int AS ledger
     FROM idempotency_keys k JOIN inquiries i ON i.id = k.inquiry_id LEFT JOIN assessments a ON a.inquiry_id = i.id
     WHERE k.key LIKE $1 GROUP BY k.key`,
    [`repeat:${id}:%`],
  );
  return { ticks, byRun: new Map((rows as RunRow[]).map((r) => [r.key, r])) };
}

async function expectEveryTickRunOnce(id: string, ticks: string[], byRun: Map<string, RunRow>): Promise<void> {
  const queue = ts.service.core.queues.queue('monitors');
  const queued = new Set(await inFlight(id));
  let finished = 0;
  for (const runId of ticks) {
    if (queued.has(runId)) {
      // Accepted just before the stop: its run waits in the queue for the next worker, not lost.
      expect(await queue.getJobState(toBullJobId(`${runId}.run`)), runId).toMatch(/^(waiting|delayed|prioritized)$/);
      continue;
    }
    finished += 1;
    // A run that opened an inquiry opened one, with one ledger entry.
    if (byRun.has(runId)) expect(byRun.get(runId), runId).toMatchObject({ inquiries: 1, ledger: 1 });
  }
  // The others ended unchanged, each counted once by the machine: together, every finished run exactly once.
  const { rows } = await owner.query('SELECT unchanged_rescans::int AS n FROM monitors WHERE id = $1', [id]);
  expect(byRun.size + rows[0].n).toBe(finished);
  // One audit row per run that ended, whichever way: a killed attempt that committed its inquiry wrote it, else its retry.
  const audited = await owner.query(`SELECT status FROM audit_log WHERE action = 'rescanMonitor' AND principal = $1`, [`monitor:${id}`]);
  expect(audited.rows.length).toBe(finished);
  expect(audited.rows.every((a) => a.status === 200)).toBe(true);
}

describe('a monitor worker killed mid-schedule', () => {
  it('loses no scheduled run and doubles none', async () => {
    const first = await startWorker();
    const created = await call(ts, 'POST', '/v1/monitors', ts.tenant.keys.test, {
      ...WATCH,
      cadence_seconds: 1,
      triggers: { score_moves_by: 10 },
    });
    expect(created.status).toBe(201);
    const id = created.body.monitor_id as string;

    await vi.waitFor(async () => expect(await ledgerCount(owner, id)).toBeGreaterThanOrEqual(2), { timeout: 20_000, interval: 50 });
    // Kill while a rescan is waiting on the provider: its run is neither finished nor recorded.
    await vi.waitFor(() => expect(pending).toBeGreaterThan(0), { timeout: 10_000, interval: 5 });
    first.kill('SIGKILL');
    await exited(first);
    const atKill = await ledgerCount(owner, id);
    const interrupted = await inFlight(id);
    expect(interrupted.length).toBeGreaterThanOrEqual(1);

    const second = await startWorker();
    // The stalled run is handed to the new worker (lock + stall checks), and the schedule goes on meanwhile.
    await vi.waitFor(
      async () => {
        const now = await inFlight(id);
        expect(interrupted.filter((r) => now.includes(r))).toEqual([]);
        expect(await ledgerCount(owner, id)).toBeGreaterThanOrEqual(atKill + 4);
      },
      { timeout: 60_000, interval: 200 },
    );
    // A graceful stop lets runs under way finish; ticks not yet due stay in Redis, as they would across a deploy.
    second.kill('SIGTERM');
    await exited(second);

    const { ticks, byRun } = await runsOf(id);
    expect(ticks.length).toBeGreaterThanOrEqual(atKill + 4);
    await expectEveryTickRunOnce(id, ticks, byRun);
    // No inquiry of the monitor outside those runs, and one ledger entry each.
    expect([...byRun.keys()].every((k) => ticks.includes(k))).toBe(true);
    const { rows: asked } = await owner.query(`SELECT count(*)::int AS n FROM inquiries WHERE principal = $1`, [`monitor:${id}`]);
    expect(asked[0].n).toBe(byRun.size);
    expect(await ledgerCount(owner, id)).toBe(byRun.size);
  }, 120_000);
});
