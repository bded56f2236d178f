import { awaitClient } from '../platform/unitContext.js';
import { mergeHeaders, statusLine, type Exchange } from './exchange.js';

/**
 * A body of known length sent in slices read one at a time (an export
 * bundle, issue 40): the edge holds one slice, never the whole body, and
 * reads the next only when uWS has taken the last (tryEnd; onWritable when
 * the client is slower than the reads). The length goes out as
 * Content-Length, from tryEnd's total.
 *
 * uWS rules kept: every write outside a uWS callback is corked, status before
 * headers, nothing written after an abort, and no exception escapes into the
 * onWritable callback. A read that fails after the head went out closes the
 * connection: the client sees a short body against Content-Length, never a
 * whole-looking wrong one.
 */
export interface SlicedBody {
  status: number;
  headers: Record<string, string>;
  size: number;
  read(offset: number, length: number): Promise<Buffer>;
}

// 1 MiB: few enough queries for a 256 MiB bundle (256), small enough to hold one per download.
export const SLICE_BYTES = 1024 * 1024;

export async function streamBytes(ex: Exchange, body: SlicedBody, sliceBytes = SLICE_BYTES): Promise<void> {
  if (ex.aborted || ex.responded) return;
  ex.responded = true;
  ex.res.cork(() => {
    ex.res.writeStatus(statusLine(body.status));
    for (const [k, v] of Object.entries(mergeHeaders(ex.extraHeaders, body.headers))) ex.res.writeHeader(k, v);
    if (ex.method === 'HEAD') ex.res.endWithoutBody(body.size);
    else if (body.size === 0) ex.res.end();
  });
  if (ex.method === 'HEAD' || body.size === 0) return;
  let offset = 0;
  try {
    while (offset < body.size && !ex.aborted) {
      const slice = await body.read(offset, Math.min(sliceBytes, body.size - offset));
      if (slice.length === 0) throw new Error('the stored body ended before its length');
      if (ex.aborted) return;
      // Waiting for the client to take the slice lets the unit's scheduler slot go (issue 48).
      await awaitClient(sendSlice(ex, slice, body.size));
      offset += slice.length;
    }
  } catch (error) {
    if (!ex.aborted) ex.res.cork(() => ex.res.close());
    throw error;
  }
}

/** Resolves once uWS has taken the whole slice (or the client went away). */
function sendSlice(ex: Exchange, slice: Buffer, total: number): Promise<void> {
  return new Promise((resolve) => {
    const start = ex.res.getWriteOffset();
    let ok = false;
    let done = false;
    ex.res.cork(() => {
      [ok, done] = ex.res.tryEnd(slice, total);
    });
    if (ok || done) return resolve();
    ex.onAbort.push(resolve);
    ex.res.onWritable((offset) => {
      try {
        const [more, finished] = ex.res.tryEnd(slice.subarray(offset - start), total);
        if (more || finished) resolve();
        return more;
      } catch {
        resolve();
        return true;
      }
    });
  });
}
