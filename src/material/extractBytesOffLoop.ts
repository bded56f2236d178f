import { Worker } from 'node:worker_threads';
import type { Family } from './sniff.js';
import { ExtractionFailure, type ExtractedThing, type ExtractOptions } from './extractors/types.js';

/**
 * One extraction of material bytes in its own thread, with a memory ceiling
 * and a wall-clock limit: a hostile file (a parser loop, a bomb that lies
 * about its sizes) ends that thread as `too_large` or `timeout` and nothing
 * else. The worker process and the other jobs in it go on. A thread per job
 * costs about a second to start (the TypeScript loader), small beside a
 * document's parsing and OCR.
 */
export const EXTRACTION_TIMEOUT_MS = 120_000;
// pdf.js and mammoth hold the parsed document; 512 MiB is ample for any real one and bounds a hostile one.
const MAX_OLD_GENERATION_MB = 512;

type Reply = { found: ExtractedThing[] } | { failure: ExtractionFailure['reason'] } | { error: string };

export function extractBytesOffLoop(
  family: Family,
  bytes: Buffer,
  opts: ExtractOptions,
  mediaType: string,
  timeoutMs = EXTRACTION_TIMEOUT_MS,
): Promise<ExtractedThing[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./bytesWorker.mjs', import.meta.url), {
      workerData: { family, bytes, opts, mediaType },
      resourceLimits: { maxOldGenerationSizeMb: MAX_OLD_GENERATION_MB },
    });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      void worker.terminate();
    };
    const timer = setTimeout(() => settle(() => reject(new ExtractionFailure('timeout'))), timeoutMs);
    worker.on('message', (reply: Reply) =>
      settle(() => {
        if ('found' in reply) resolve(reply.found);
        else if ('failure' in reply) reject(new ExtractionFailure(reply.failure));
        else reject(new Error(`extraction failed: ${reply.error}`));
      }),
    );
    worker.on('error', (error) =>
      settle(() => reject((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY' ? new ExtractionFailure('too_large') : error)),
    );
    worker.on('exit', (code) => settle(() => reject(new Error(`the extraction thread exited (code ${code})`))));
  });
}
