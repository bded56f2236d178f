import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Family } from './sniff.js';
import { ExtractionFailure, type ExtractedThing, type ExtractOptions } from './extractors/types.js';

/**
 * File parsers (PDF, DOCX, images and their OCR, audio and video metadata,
 * ZIP) run in a child process of their own, one per extraction, never in the
 * process that holds the database credentials, the Redis address and the key
 * pepper (issue 40). The child gets:
 *
 * - an explicit, minimal environment: `PATH` and nothing else, so no
 *   DATABASE_URL, REDIS_URL, TAS_* setting or pepper reaches it;
 * - when the service runs as root, the `nobody` user (uid and gid 65534), so
 *   it cannot read the service's own /proc entries or files;
 * - a memory limit: V8's heap (`--max-old-space-size`) and the kernel's data
 *   limit (RLIMIT_DATA, set by `ulimit -d` in the shell that starts it) over
 *   the whole process, WebAssembly (OCR) and buffers included;
 * - a CPU limit (RLIMIT_CPU) and a wall-clock limit, after which it is killed;
 * - a bounded channel: the request (a small header and the bytes, at most
 *   MAX_INPUT_BYTES) on its stdin, and one JSON reply of at most
 *   MAX_REPLY_BYTES on file descriptor 3; a longer reply kills it.
 *
 * A child killed at a limit is a failed extraction (`too_large`, `timeout`);
 * one that dies otherwise is a fault of ours, thrown so the queue retries and
 * then records `extractor_failed`. The next extraction starts a fresh child,
 * so one tenant's file never shares a parser with another's. Starting one
 * costs about a second (node and the TypeScript loader), small beside a
 * document's parsing and OCR.
 */
export interface ParserLimits {
  /** V8's heap limit in MiB; the whole process may use twice this plus PROCESS_BASE_MB. */
  memoryMb: number;
  /** Wall-clock limit; the CPU limit is the same number of seconds, rounded up. */
  timeoutMs: number;
}

export const DEFAULT_PARSER_LIMITS: ParserLimits = { memoryMb: 512, timeoutMs: 120_000 };
/** The largest upload (64 MiB) and room to spare: anything larger is refused before a child starts. */
export const MAX_INPUT_BYTES = 80 * 1024 * 1024;
/** A reply carries at most MAX_ITEMS_PER_MATERIAL short items: 4 MiB is far above any honest one. */
export const MAX_REPLY_BYTES = 4 * 1024 * 1024;
// node, the loader and the parsers' code before any document is read.
const PROCESS_BASE_MB = 256;
// The last lines a dying child wrote, read only to tell an out-of-memory end from another crash; never logged.
const STDERR_TAIL_BYTES = 4096;
const NOBODY = 65534;
const ENTRY = fileURLToPath(new URL('./parserChild.mjs', import.meta.url));

export type ParserRequest =
  | { kind: 'extract'; family: Family; opts: ExtractOptions; mediaType: string }
  /** What the child sees of its own process: its environment's names, its user; with `allocate`, it allocates until a limit stops it. */
  | { kind: 'probe'; allocate?: boolean };

export interface ParserProbe {
  envKeys: string[];
  uid: number;
  pid: number;
}

type Reply = { found: ExtractedThing[] } | { failure: ExtractionFailure['reason'] } | { error: string } | { probe: ParserProbe };

/** Extracts identifiers and claims from material bytes in a fresh, limited parser process. */
export async function extractInParser(
  family: Family,
  bytes: Buffer,
  opts: ExtractOptions,
  mediaType: string,
  limits: ParserLimits = DEFAULT_PARSER_LIMITS,
): Promise<ExtractedThing[]> {
  const reply = await runParser({ kind: 'extract', family, opts, mediaType }, bytes, limits);
  if ('found' in reply) return reply.found;
  throw new Error('the parser process answered out of turn');
}

/** Asks a fresh parser process about itself (tests, and an operator checking a deployment). */
export async function probeParser(
  limits: ParserLimits = DEFAULT_PARSER_LIMITS,
  opts: { allocate?: boolean; onSpawn?: (pid: number) => void } = {},
): Promise<ParserProbe> {
  const reply = await runParser({ kind: 'probe', allocate: opts.allocate === true }, Buffer.alloc(0), limits, opts.onSpawn);
  if ('probe' in reply) return reply.probe;
  throw new Error('the parser process answered out of turn');
}

/** The environment a parser process gets: nothing of the service's. */
export function parserEnvironment(): Record<string, string> {
  return { PATH: '/usr/local/bin:/usr/bin:/bin' };
}

function runParser(request: ParserRequest, bytes: Buffer, limits: ParserLimits, onSpawn?: (pid: number) => void): Promise<Reply> {
  if (bytes.length > MAX_INPUT_BYTES) return Promise.reject(new ExtractionFailure('too_large'));
  const cpuSeconds = Math.max(1, Math.ceil(limits.timeoutMs / 1000));
  const dataKb = (2 * limits.memoryMb + PROCESS_BASE_MB) * 1024;
  const root = process.getuid?.() === 0;
  const child = spawn(
    '/bin/sh',
    // The shell sets the kernel's limits on itself, then becomes node with them (exec keeps the pid).
    [
      '-c',
      // A soft CPU limit sends SIGXCPU (which ends node); the hard one, a little later, SIGKILL.
      `ulimit -d ${dataKb} && ulimit -S -t ${cpuSeconds} && ulimit -H -t ${cpuSeconds + 5} && exec "$0" "$@"`,
      process.execPath,
      `--max-old-space-size=${limits.memoryMb}`,
      ENTRY,
    ],
    {
      env: parserEnvironment(),
      stdio: ['pipe', 'ignore', 'pipe', 'pipe'],
      ...(root ? { uid: NOBODY, gid: NOBODY } : {}),
    },
  );
  return new Promise<Reply>((resolve, reject) => {
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderrTail = '';
    let settled = false;
    let killedFor: ExtractionFailure['reason'] | null = null;
    const kill = (reason: ExtractionFailure['reason']) => {
      killedFor ??= reason;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => kill('timeout'), limits.timeoutMs);
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    child.on('spawn', () => {
      if (child.pid !== undefined) onSpawn?.(child.pid);
    });
    const replies = child.stdio[3] as NodeJS.ReadableStream;
    replies.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > MAX_REPLY_BYTES) kill('too_large');
      else out.push(chunk);
    });
    replies.on('error', () => undefined);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    child.stdin!.on('error', () => undefined); // a child that died before reading its input: its exit says why
    child.on('error', (error) => settle(() => reject(new Error(`the parser process could not start: ${error.message}`))));
    child.on('close', (code, signal) =>
      settle(() => {
        if (killedFor !== null) return reject(new ExtractionFailure(killedFor));
        if (signal === 'SIGXCPU') return reject(new ExtractionFailure('timeout'));
        if (outOfMemory(stderrTail)) return reject(new ExtractionFailure('too_large'));
        if (code !== 0 || signal !== null)
          return reject(new Error(`the parser process ended without an answer (${signal ?? `code ${code}`})`));
        let reply: Reply;
        try {
          reply = JSON.parse(Buffer.concat(out).toString('utf8')) as Reply;
        } catch {
          return reject(new Error('the parser process gave an unreadable answer'));
        }
        if ('failure' in reply) reject(new ExtractionFailure(reply.failure));
        else if ('error' in reply) reject(new Error(`extraction failed: ${reply.error}`));
        else resolve(reply);
      }),
    );
    const header = Buffer.from(JSON.stringify({ ...request, size: bytes.length }), 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32BE(header.length);
    child.stdin!.end(Buffer.concat([length, header, bytes]));
  });
}

// What V8 and node print when the heap limit or the data limit ends them.
function outOfMemory(stderr: string): boolean {
  return /out of memory|heap limit|allocation failed/i.test(stderr);
}
