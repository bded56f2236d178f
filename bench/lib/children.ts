import { fork, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Every child process the bench starts, and every cleanup it owes, in one
 * place: children are killed on normal exit, on SIGINT/SIGTERM and on a crash,
 * and the async cleanups (drop a database, clear a Redis prefix) run before
 * the process exits on a signal. Only processes started here are ever killed.
 */
const children = new Set<ChildProcess>();
const cleanups = new Map<number, () => Promise<void>>();
let nextCleanup = 0;

export const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));
export const ROOT_DIR = fileURLToPath(new URL('../..', import.meta.url));

export function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export function spawnTracked(cmd: string, args: string[], opts: SpawnOptions): ChildProcess {
  return track(spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts }));
}

/** A bench TypeScript module as a child with an IPC channel (tsx loader, like the service). */
export function forkTs(module: string, args: string[] = [], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  return track(
    fork(`${BENCH_DIR}${module}`, args, {
      execArgv: ['--import', 'tsx'],
      cwd: ROOT_DIR,
      env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
}

/** Registers a cleanup; the returned function runs it now (once) and unregisters it. */
export function deferCleanup(fn: () => Promise<void>): () => Promise<void> {
  const id = nextCleanup++;
  let done: Promise<void> | null = null;
  const run = () => {
    cleanups.delete(id);
    done ??= fn().catch((err) => console.error(`bench: cleanup failed: ${(err as Error).message}`));
    return done;
  };
  cleanups.set(id, run);
  return run;
}

/** Asks a child to stop (signal), waits up to `graceMs`, then kills it. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

function killAllNow(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** Kills every child still running, then runs every pending cleanup. */
export async function cleanupAll(): Promise<void> {
  await Promise.all([...children].map((c) => stopChild(c, 'SIGTERM', 3000)));
  for (const run of [...cleanups.values()]) await run();
}

let installed = false;
export function installExitHandlers(): void {
  if (installed) return;
  installed = true;
  process.on('exit', killAllNow);
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) {
      killAllNow();
      process.exit(130);
    }
    interrupted = true;
    console.error(`\nbench: ${signal}: stopping children and cleaning up (again to force)`);
    void cleanupAll().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('uncaughtException', (err) => {
    console.error(`bench: ${err.stack ?? err.message}`);
    void cleanupAll().finally(() => process.exit(1));
  });
}

/** Waits for a `{type}` message from a forked child; fails if it exits first or the time runs out. */
export function waitMessage<T>(child: ChildProcess, type: string, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`child did not report '${type}' within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (m: unknown) => {
      const msg = m as { type?: string; error?: string };
      if (msg.type === 'error') done(new Error(msg.error ?? 'child failed'));
      else if (msg.type === type) done(null, m as T);
    };
    const onExit = (code: number | null) => done(new Error(`child exited (code ${code}) before reporting '${type}'`));
    const done = (err: Error | null, value?: T) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(value as T);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}
