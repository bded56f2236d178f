import type { Db } from '../platform/db/pool.js';
import type { Handler } from '../edge/handler.js';
import { requirePrincipal } from '../auth/index.js';
import { exportTrail, listAuditEntries, type AuditListQuery } from './index.js';
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

/** GET /v1/admin/audit/export: the tenant's trail for a period, as NDJSON (trailExport.ts). */
export function createExportAudit(deps: { db: Db }): Handler {
  return async (ctx) => {
    const principal = requirePrincipal(ctx);
    const body = await exportTrail(deps, principal, ctx.query as AuditExportQuery);
    return { status: 200, contentType: 'application/x-ndjson', raw: body };
  };
}
