import { awaitClient } from '../platform/unitContext.js';
import type { Exchange } from './exchange.js';
import { ServiceProblem } from '../platform/problems.js';

/**
 * Reads a request body with a hard size limit. A declared Content-Length over
 * the limit is refused before a byte is read; a body that grows past it while
 * streaming is refused as soon as it does, and the connection is closed so a
 * hostile client cannot keep us reading.
 */
export function readBody(ex: Exchange, maxBytes: number): Promise<Buffer> {
  const declared = ex.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) {
    return Promise.reject(tooLarge(maxBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    ex.onAbort.push(() => {
      if (!done) {
        done = true;
        reject(new Error('client aborted'));
      }
    });
    ex.res.onData((chunk, isLast) => {
      if (done) return;
      size += chunk.byteLength;
      if (size > maxBytes) {
        done = true;
        reject(tooLarge(maxBytes));
        return;
      }
      // uWS reuses the chunk's memory after this callback returns: copy it.
      chunks.push(Buffer.from(chunk.slice(0)));
      if (isLast) {
        done = true;
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
      }
    });
  });
}

function tooLarge(maxBytes: number): ServiceProblem {
  return new ServiceProblem('payload-too-large', `The request body exceeds ${maxBytes} bytes.`, { max_bytes: maxBytes });
}

/**
 * A request body as a stream, for uploads too large to hold (PUT of material
 * bytes). Chunks are copied into a small queue; when it holds HIGH_WATER
 * bytes the client is paused (uWS `pause`, which stops reading the socket)
 * until the consumer catches up, so memory stays bounded whatever the upload
 * size. A body longer than `maxBytes` or a client that goes away ends the
 * iteration with an error. Until the body has been read to its end, the
 * exchange is marked to close after its answer: an early refusal must not
 * leave the rest of the upload to be read as the next request.
 */
const HIGH_WATER = 1024 * 1024;

export function streamBody(ex: Exchange, maxBytes: number): AsyncIterable<Buffer> {
  const queue: Buffer[] = [];
  let queued = 0;
  let total = 0;
  let ended = false;
  let failure: Error | null = null;
  let paused = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  ex.closeAfterAnswer = true;
  ex.onAbort.push(() => {
    failure ??= new Error('client aborted');
    notify();
  });
  ex.res.onData((chunk, isLast) => {
    if (failure || ended) return;
    total += chunk.byteLength;
    if (total > maxBytes) {
      failure = tooLarge(maxBytes);
    } else {
      // uWS reuses the chunk's memory after this callback returns: copy it.
      if (chunk.byteLength > 0) queue.push(Buffer.from(chunk.slice(0)));
      queued += chunk.byteLength;
      if (isLast) ended = true;
      if (queued >= HIGH_WATER && !paused && !ex.aborted) {
        paused = true;
        ex.res.pause();
      }
    }
    notify();
  });
  return {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        if (queue.length > 0) {
          const next = queue.shift()!;
          queued -= next.length;
          if (paused && queued < HIGH_WATER && !ex.aborted) {
            paused = false;
            ex.res.resume();
          }
          yield next;
          continue;
        }
        if (failure) throw failure;
        if (ended) {
          ex.closeAfterAnswer = false;
          return;
        }
        // The next chunk is the client's to send: the unit's scheduler slot goes to another turn meanwhile,
        // and this chunk is taken in its tenant's turn; until then the queue above pauses the client (issue 48).
        await awaitClient(new Promise<void>((resolve) => (wake = resolve)));
      }
    },
  };
}
