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
