import { Worker } from 'node:worker_threads';
import { extractFromText, type ExtractedIdentifier } from './extractText.js';

/**
 * Extraction of large text material off the event loop. Extraction is linear
 * (about 0.1 s per MB at worst, bench/README.md), but 0.1 s on the event loop
 * is 0.1 s of every tenant's calls waiting, so text from 64 KiB up is read in
 * one long-lived worker thread, started on first use. Calls queue in it one
 * after another; small texts stay inline, where a worker's round trip would
 * cost more than the work. The worker is unref'd: it never keeps the process
 * alive, and a crashed worker fails the calls in it and is replaced.
 */
export const OFF_LOOP_FROM_CHARS = 64 * 1024;

type Opts = { defaultCountry?: string };
interface Waiting {
  resolve: (found: ExtractedIdentifier[]) => void;
  reject: (error: Error) => void;
}

let worker: Worker | null = null;
let nextId = 0;
const waiting = new Map<number, Waiting>();

function failAll(error: Error): void {
  for (const w of waiting.values()) w.reject(error);
  waiting.clear();
  worker = null;
}

function started(): Worker {
  if (worker !== null) return worker;
  const w = new Worker(new URL('./extractWorker.mjs', import.meta.url));
  w.unref();
  w.on('message', (msg: { id: number; found?: ExtractedIdentifier[]; error?: string }) => {
    const w8 = waiting.get(msg.id);
    if (w8 === undefined) return;
    waiting.delete(msg.id);
    if (msg.error !== undefined) w8.reject(new Error(`extraction failed: ${msg.error}`));
    else w8.resolve(msg.found ?? []);
  });
  w.on('error', (error) => failAll(error));
  w.on('exit', (code) => failAll(new Error(`the extraction worker exited (code ${code})`)));
  worker = w;
  return w;
}

export function extractText(text: string, opts: Opts = {}): Promise<ExtractedIdentifier[]> {
  if (text.length < OFF_LOOP_FROM_CHARS) return Promise.resolve(extractFromText(text, opts));
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    started().postMessage({ id, text, opts });
  });
}
