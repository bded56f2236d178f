import type { Db } from '../platform/db/pool.js';
import type { Handler } from '../edge/handler.js';
import { mergeHeaders, statusLine, type Exchange } from '../edge/exchange.js';
import { requirePrincipal } from '../auth/index.js';
import { listAuditEntries, type AuditListQuery } from './index.js';
import { exportTrail } from './trailExport.js';
import type { AuditExportQuery } from './exportSchemas.js';

/**
 * GET /v1/admin/audit: HTTP around the audit list (listing.ts). A
 * `Link: rel="next"` header gives the next page, with the same filters, when
 * there may be one.
 */
export function createListAudit(deps: { db: Db }): Handler {
  return async (ctx) => {
    const page = await listAuditEntries(deps, requirePrincipal(ctx), ctx.query as AuditListQuery);
    const headers: Record<string, string> = {};
    if (page.next) {
      const next = new URLSearchParams({ after: page.next.after!, limit: String(page.next.limit) });
      for (const name of ['operation', 'status', 'key_id', 'since', 'until'] as const)
        if (page.next[name] !== undefined) next.set(name, String(page.next[name]));
      headers.Link = `</v1/admin/audit?${next.toString()}>; rel="next"`;
    }
    return { status: 200, body: page.entries, headers };
  };
}

/**
 * GET /v1/admin/audit/export: the tenant's trail for a period, as NDJSON
 * (trailExport.ts), streamed. The period is checked and the seals read
 * before the head goes out, so a bad period is a 422 like any other; then
 * the rows go out a page at a time, chunked: a page is read once the one
 * before was handed to uWS, and written only when the socket can take it.
 */
export function createExportAudit(deps: { db: Db }): Handler {
  return async (ctx) => {
    const principal = requirePrincipal(ctx);
    const trail = await exportTrail(deps, principal, ctx.query as AuditExportQuery);
    await ctx.auditNow('done');
    // Awaited to the last page, so a draining process waits for the export as for any call.
    await streamChunks(
      ctx.ex,
      {
        status: 200,
        headers: { 'X-Service-Audit-Id': ctx.auditId, 'X-Request-Id': ctx.reqId, 'Content-Type': 'application/x-ndjson' },
      },
      trail.head,
      trail.pages,
    );
    return { streamed: true };
  };
}

/**
 * A body of unknown length sent as HTTP chunks, with backpressure: a chunk
 * is written only once uWS has handed the one before to the socket, so the
 * process holds at most the chunk being read and the one the socket has not
 * taken yet. A failure after the head went out closes the connection: the
 * client sees a body without its last chunk, never a whole-looking short one.
 */
export async function streamChunks(
  ex: Exchange,
  head: { status: number; headers: Record<string, string> },
  first: string,
  rest: AsyncIterable<string>,
): Promise<void> {
  if (ex.aborted || ex.responded) return;
  ex.responded = true;
  ex.res.cork(() => {
    ex.res.writeStatus(statusLine(head.status));
    for (const [k, v] of Object.entries(mergeHeaders(ex.extraHeaders, head.headers))) ex.res.writeHeader(k, v);
    if (ex.method === 'HEAD') ex.res.endWithoutBody();
  });
  if (ex.method === 'HEAD') return;
  const socket = drainingWriter(ex);
  try {
    await socket.write(first);
    for await (const chunk of rest) {
      if (ex.aborted) return;
      await socket.write(chunk);
    }
    if (!ex.aborted) ex.res.cork(() => ex.res.end());
  } catch (error) {
    if (!ex.aborted) ex.res.cork(() => ex.res.close());
    throw error;
  }
}

/**
 * Writes that wait for the socket. uWS buffers what the socket does not take
 * (write answers false) and, once an onWritable handler is registered,
 * flushes that buffer only when written to again: so a chunk that finds the
 * buffer full waits for onWritable and is written from it; when onWritable
 * comes while the next chunk is still being read, it is remembered and the
 * chunk, once read, is written at once (the write flushes the buffer first
 * and asks for onWritable again if the socket still cannot take it all).
 * uWS forgets the handler when the response ends, and drains the rest itself.
 */
function drainingWriter(ex: Exchange): { write(chunk: string): Promise<void> } {
  let blocked = false;
  let writableUnused = false;
  let pending: { chunk: string; resolve: () => void } | null = null;
  const release = () => {
    const waiting = pending;
    pending = null;
    waiting?.resolve();
  };
  ex.onAbort.push(release);
  ex.res.onWritable(() => {
    if (pending === null) {
      writableUnused = true;
      return true;
    }
    try {
      blocked = !ex.res.write(pending.chunk);
    } catch {
      blocked = false;
    }
    release();
    return !blocked;
  });
  return {
    write(chunk) {
      if (ex.aborted) return Promise.resolve();
      if (blocked && !writableUnused) return new Promise((resolve) => (pending = { chunk, resolve }));
      writableUnused = false;
      ex.res.cork(() => {
        blocked = !ex.res.write(chunk);
      });
      return Promise.resolve();
    },
  };
}
