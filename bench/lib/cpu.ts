import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/**
 * Where the machine's cores went during a load run, from /proc: CPU time of
 * the service process, of every PostgreSQL and Redis process, and of the load
 * generator, plus the whole machine's busy time. Linux only; zeros elsewhere.
 */
const TICK_MS = 10; // USER_HZ is 100 on Linux

export function ticksOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  } catch {
    return 0;
  }
}

/**
 * CPU ticks of every process named `name`; with `dbName`, PostgreSQL backends
 * of other databases (another session's tests, say) are left out, while the
 * server's own background processes (WAL writer, checkpointer) are counted.
 */
export function ticksOfCommand(name: string, dbName?: string): number {
  let sum = 0;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return 0;
  }
  for (const pid of pids) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== name) continue;
      if (dbName !== undefined) {
        // A backend's title is "postgres: 15/main: USER DATABASE HOST(PORT) STATE".
        const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
        const backend = /^postgres: [^:]+: \S+ (\S+) \S+\(\d+\)/.exec(title);
        if (backend && backend[1] !== dbName) continue;
      }
      sum += ticksOf(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return sum;
}

function machineTicks(): { busy: number; total: number } {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
    const total = cpu.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return { busy: 0, total: 0 };
  }
}

export interface CpuSnapshot {
  at: number;
  service: number;
  postgres: number;
  redis: number;
  loadgen: number;
  bench: number;
  machine: { busy: number; total: number };
}

/** `servicePid` may name several processes (edges of one service); their CPU is summed. */
export function cpuSnapshot(
  servicePid: number | readonly number[] | undefined,
  loadgenPid: number | undefined,
  dbName?: string,
): CpuSnapshot {
  const services = servicePid === undefined ? [] : typeof servicePid === 'number' ? [servicePid] : servicePid;
  return {
    at: Date.now(),
    service: services.reduce((sum, pid) => sum + ticksOf(pid), 0),
    postgres: ticksOfCommand('postgres', dbName ?? ''),
    redis: ticksOfCommand('redis-server'),
    loadgen: loadgenPid ? ticksOf(loadgenPid) : 0,
    bench: ticksOf(process.pid),
    machine: machineTicks(),
  };
}

/** Cores busy on the whole machine over `ms` (to warn when something else is using it). */
export async function machineBusyCores(ms = 1000): Promise<number> {
  const a = machineTicks();
  await new Promise((r) => setTimeout(r, ms));
  const b = machineTicks();
  return b.total > a.total ? Math.round(((b.busy - a.busy) / (b.total - a.total)) * cpus().length * 100) / 100 : 0;
}

/** Average cores used by each party between two snapshots, and the service's CPU milliseconds per request. */
export function cpuBetween(a: CpuSnapshot, b: CpuSnapshot, requests: number) {
  const wallMs = Math.max(1, b.at - a.at);
  const cores = (ticks: number) => Math.round(((ticks * TICK_MS) / wallMs) * 100) / 100;
  const perReq = (ticks: number) => (requests > 0 ? Math.round(((ticks * TICK_MS) / requests) * 100) / 100 : null);
  const mt = b.machine.total - a.machine.total;
  const busyCores = mt > 0 ? ((b.machine.busy - a.machine.busy) / mt) * cpus().length : 0;
  const ours = ['service', 'postgres', 'redis', 'loadgen', 'bench'] as const;
  const oursCores = ours.reduce((sum, k) => sum + ((b[k] - a[k]) * TICK_MS) / wallMs, 0);
  return {
    cores: {
      service: cores(b.service - a.service),
      postgres: cores(b.postgres - a.postgres),
      redis: cores(b.redis - a.redis),
      loadgen: cores(b.loadgen - a.loadgen),
      machine_busy: Math.round(busyCores * 100) / 100,
      // Machine busy time not charged to any process of this run (kernel work, or another workload).
      unaccounted: Math.round((busyCores - oursCores) * 100) / 100,
    },
    cpu_ms_per_request: {
      service: perReq(b.service - a.service),
      postgres: perReq(b.postgres - a.postgres),
      redis: perReq(b.redis - a.redis),
    },
  };
}
