import type { CaseAssertionIn, CaseHoldIn, CaseMemberIn, CaseReviewIn, CaseService, CaseView } from './service.js';
import { matchesIfNoneMatch } from '../edge/representation.js';
import { streamBytes } from '../edge/streamBytes.js';
import { send } from '../edge/exchange.js';
import type { CaseExports, CaseExportView } from './export/exports.js';
import type { CaseExpansion } from './expand.js';
import type { Handler, HandlerContext } from '../edge/handler.js';
import type { CaseCreate, CaseExpandIn, IntakeManifest } from './schemas.js';
import { requirePrincipal } from '../auth/index.js';
import { inquiryBody } from '../inquiries/index.js';
import { caseBody, exportBody } from './wire.js';

/**
 * The case operations (src/schemas/operationsCases.ts), keyed by operationId
 * for app.ts's handler table. The event stream of a case is in streams.ts
 * with the other streams. Exports: asked here, read and downloaded through
 * the two extension operations.
 */
export function caseHandlers(deps: {
  cases: CaseService;
  exports: CaseExports;
  expansion: CaseExpansion;
  /** Base of the addresses the answers carry: a case's and an inquiry's events_url, an export's download_url. */
  publicUrl: () => string;
}): [string, Handler][] {
  const { cases, exports, expansion } = deps;
  const id = (ctx: HandlerContext) => ctx.params.case_id!;
  const p = requirePrincipal;
  const asCase = (view: CaseView) => caseBody(view, deps.publicUrl());
  const asExport = (view: CaseExportView) => exportBody(view, deps.publicUrl());
  return [
    ['createCase', async (ctx) => ({ status: 201, body: asCase(await cases.open(ctx, p(ctx), ctx.body as CaseCreate)) })],
    [
      'getCase',
      async (ctx) => {
        ctx.audit.target_kind = 'case';
        ctx.audit.target_id = id(ctx);
        return { status: 200, body: asCase(await cases.view(p(ctx), id(ctx))) };
      },
    ],
    [
      'getCaseTimeline',
      async (ctx) => {
        ctx.audit.target_kind = 'case';
        ctx.audit.target_id = id(ctx);
        return { status: 200, body: await cases.timeline(p(ctx), id(ctx)) };
      },
    ],
    [
      'getCaseGraph',
      async (ctx) => {
        ctx.audit.target_kind = 'case';
        ctx.audit.target_id = id(ctx);
        return { status: 200, body: await cases.graph(p(ctx), id(ctx)) };
      },
    ],
    [
      'changeCaseMembers',
      async (ctx) => ({ status: 200, body: asCase(await cases.members(ctx, p(ctx), id(ctx), ctx.body as CaseMemberIn)) }),
    ],
    ['holdCase', async (ctx) => ({ status: 200, body: asCase(await cases.hold(ctx, p(ctx), id(ctx), ctx.body as CaseHoldIn)) })],
    ['releaseCase', async (ctx) => ({ status: 200, body: asCase(await cases.release(ctx, p(ctx), id(ctx), ctx.body as CaseHoldIn)) })],
    ['reviewCase', async (ctx) => ({ status: 200, body: asCase(await cases.review(ctx, p(ctx), id(ctx), ctx.body as CaseReviewIn)) })],
    [
      'closeCase',
      async (ctx) => {
        const finding = (ctx.query as { finding?: string }).finding ?? null;
        return { status: 200, body: asCase(await cases.close(ctx, p(ctx), id(ctx), finding)) };
      },
    ],
    ['createCaseAssertion', async (ctx) => ({ status: 201, body: await cases.assert(ctx, p(ctx), id(ctx), ctx.body as CaseAssertionIn) })],
    ['intakeCase', async (ctx) => ({ status: 201, body: await cases.intake(ctx, p(ctx), id(ctx), ctx.body as IntakeManifest) })],
    // 202: the hop's inquiry may still reason; its revisions follow on the case stream.
    [
      'expandCase',
      async (ctx) => ({
        status: 202,
        body: inquiryBody((await expansion.expand(ctx, p(ctx), id(ctx), ctx.body as CaseExpandIn)).inquiry, deps.publicUrl()),
      }),
    ],
    [
      'exportCase',
      async (ctx) => ({
        status: 202,
        body: asExport(await exports.request(ctx, p(ctx), id(ctx), (ctx.query as { format: string }).format)),
      }),
    ],
    [
      'getCaseExport',
      async (ctx) => {
        ctx.audit.target_kind = 'case_export';
        ctx.audit.target_id = ctx.params.export_id!;
        return { status: 200, body: asExport(await exports.view(p(ctx), id(ctx), ctx.params.export_id!)) };
      },
    ],
    [
      'downloadCaseExport',
      async (ctx) => {
        const exportId = ctx.params.export_id!;
        ctx.audit.target_kind = 'case_export';
        ctx.audit.target_id = exportId;
        const bundle = await exports.download(p(ctx), id(ctx), exportId);
        // The ETag is the hash stored with the bundle (issue 40): nothing is read or hashed to answer a 304.
        const etag = `"${bundle.sha256}"`;
        await ctx.auditNow('done');
        if (matchesIfNoneMatch(ctx.ex.headers['if-none-match'], etag)) {
          send(ctx.ex, { status: 304, headers: { 'X-Service-Audit-Id': ctx.auditId, 'X-Request-Id': ctx.reqId, ETag: etag } });
          return { streamed: true };
        }
        // Awaited to the last slice, so a draining process waits for the download as for any call.
        await streamBytes(ctx.ex, {
          status: 200,
          size: bundle.size,
          read: bundle.read,
          headers: {
            'X-Service-Audit-Id': ctx.auditId,
            'X-Request-Id': ctx.reqId,
            'Content-Type': 'application/gzip',
            ETag: etag,
            'Content-Disposition': `attachment; filename="case-${id(ctx)}-export-${exportId}.tar.gz"`,
          },
        });
        return { streamed: true };
      },
    ],
  ];
}
