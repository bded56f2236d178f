import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * Real Redis topologies for a test or a bench (test/platform/,
 * bench/lib/topology.ts), started by it on free high ports in
 * a temporary directory and stopped (every process killed, the directory
 * removed) by `stop()`: a three-master Redis Cluster, and a primary with one
 * replica watched by a sentinel. Nothing is persisted (no RDB, no AOF).
 */
const run = promisify(execFile);

export interface RedisServers {
  /** Every server's port, in start order. */
  ports: number[];
  /** Their process ids (for CPU accounting), in the same order. */
  pids: number[];
  stop(): Promise<void>;
}

export interface ClusterServers extends RedisServers {
  /** `REDIS_CLUSTER_NODES` for the service. */
  nodes: string;
}

export interface SentinelServers extends RedisServers {
  /** `REDIS_SENTINELS` and `REDIS_SENTINEL_NAME` for the service. */
  sentinels: string;
  name: string;
  primaryPort(): Promise<number>;
  /** Asks the sentinel for a failover and waits until it names the other server as the primary. */
  failover(): Promise<{ from: number; to: number }>;
}

/** A port that is free now and whose cluster bus port (+10000) is free too. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    if ((await isFree(port)) && (await isFree(port + 10_000))) return port;
  }
  throw new Error('no free port pair found');
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

export async function cli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { timeout: 10_000 });
  return stdout.trim();
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function startProcess(args: string[], dir: string): ChildProcess {
  const child = spawn('redis-server', args, { cwd: dir, stdio: 'ignore' });
  child.on('error', () => undefined);
  return child;
}

async function killAll(children: ChildProcess[], dir: string): Promise<void> {
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          c.once('exit', () => resolve());
          c.kill('SIGKILL');
        }),
    ),
  );
  rmSync(dir, { recursive: true, force: true });
}

const COMMON = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'];

/** Three masters, no replicas, every slot assigned, cluster_state:ok on each node. */
export async function startRedisCluster(): Promise<ClusterServers> {
  const dir = mkdtempSync(join(tmpdir(), 'tas-redis-cluster-'));
  const children: ChildProcess[] = [];
  const ports: number[] = [];
  try {
    for (let i = 0; i < 3; i += 1) {
      const port = await freePort();
      ports.push(port);
      children.push(
        startProcess(
          [
            '--port',
            String(port),
            ...COMMON,
            '--dir',
            dir,
            '--logfile',
            join(dir, `redis-${port}.log`),
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            join(dir, `nodes-${port}.conf`),
            // A node that stops answering is failed within two seconds, not fifteen.
            '--cluster-node-timeout',
            '2000',
          ],
          dir,
        ),
      );
    }
    for (const port of ports) await waitFor(`redis ${port}`, async () => (await cli(port, 'ping')) === 'PONG');
    await run('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'], {
      timeout: 30_000,
    });
    for (const port of ports)
      await waitFor(`cluster state on ${port}`, async () => (await cli(port, 'cluster', 'info')).includes('cluster_state:ok'));
  } catch (error) {
    await killAll(children, dir);
    throw error;
  }
  return {
    ports,
    pids: children.map((c) => c.pid!),
    nodes: ports.map((p) => `127.0.0.1:${p}`).join(','),
    stop: () => killAll(children, dir),
  };
}

/** A primary, one replica of it, and one sentinel (quorum 1) that fails over after a second of silence. */
export async function startRedisSentinel(name = 'tasprimary'): Promise<SentinelServers> {
  const dir = mkdtempSync(join(tmpdir(), 'tas-redis-sentinel-'));
  const children: ChildProcess[] = [];
  const [primary, replica, sentinel] = [await freePort(), await freePort(), await freePort()];
  try {
    children.push(startProcess(['--port', String(primary), ...COMMON, '--dir', dir, '--logfile', join(dir, 'primary.log')], dir));
    children.push(
      startProcess(
        [
          '--port',
          String(replica),
          ...COMMON,
          '--dir',
          dir,
          '--logfile',
          join(dir, 'replica.log'),
          '--replicaof',
          '127.0.0.1',
          String(primary),
        ],
        dir,
      ),
    );
    await waitFor('replica in sync', async () => (await cli(replica, 'info', 'replication')).includes('master_link_status:up'));
    const conf = join(dir, 'sentinel.conf');
    writeFileSync(
      conf,
      [
        `port ${sentinel}`,
        'bind 127.0.0.1',
        'protected-mode no',
        `dir ${dir}`,
        `logfile ${join(dir, 'sentinel.log')}`,
        `sentinel monitor ${name} 127.0.0.1 ${primary} 1`,
        `sentinel down-after-milliseconds ${name} 1000`,
        `sentinel failover-timeout ${name} 5000`,
        `sentinel parallel-syncs ${name} 1`,
        '',
      ].join('\n'),
    );
    children.push(spawn('redis-server', [conf, '--sentinel'], { cwd: dir, stdio: 'ignore' }));
    await waitFor('sentinel sees the replica', async () => (await cli(sentinel, 'sentinel', 'replicas', name)).includes(String(replica)));
  } catch (error) {
    await killAll(children, dir);
    throw error;
  }
  const primaryPort = async () => Number((await cli(sentinel, 'sentinel', 'get-master-addr-by-name', name)).split('\n')[1]);
  return {
    ports: [primary, replica, sentinel],
    pids: children.map((c) => c.pid!),
    sentinels: `127.0.0.1:${sentinel}`,
    name,
    primaryPort,
    async failover() {
      const from = await primaryPort();
      const to = from === primary ? replica : primary;
      const answer = await cli(sentinel, 'sentinel', 'failover', name);
      if (answer !== 'OK') throw new Error(`SENTINEL FAILOVER answered ${answer}`);
      await waitFor('the sentinel names the new primary', async () => (await primaryPort()) === to);
      await waitFor('the new primary takes writes', async () => (await cli(to, 'role')).startsWith('master'));
      return { from, to };
    },
    stop: () => killAll(children, dir),
  };
}
