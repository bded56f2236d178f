import type { CaseService } from '../../cases/service.js';
import type { CaseExports } from '../../cases/export/exports.js';
import type { CaseExpansion } from '../../cases/expand.js';
import type { Handler, HandlerContext } from '../handler.js';
import type { CaseCreate, CaseExpandIn, IntakeManifest } from '../../schemas/cases.js';
import { requirePrincipal } from '../../auth/principal.js';

/**
 * The case operations (src/schemas/operationsCases.ts), keyed by operationId
 * for app.ts's handler table. The event stream of a case is in streams.ts
 * with the other streams. Exports: asked here, read and downloaded through
 * the two extension operations.
 */
export function caseHandlers(deps: { cases: CaseService; exports: CaseExports; expansion: CaseExpansion }): [string, Handler][] {
  const { cases, exports, expansion } = deps;
  const id = (ctx: HandlerContext) => ctx.params.case_id!;
  const p = requirePrincipal;
  return [
    ['createCase', async (ctx) => ({ status: 201, body: await cases.open(ctx, p(ctx), ctx.body as CaseCreate) })],
    ['getCase', async (ctx) => {
      ctx.audit.target_kind = 'case';
      ctx.audit.target_id = id(ctx);
      return { status: 200, body: await cases.view(p(ctx), id(ctx)) };
    }],
    ['getCaseTimeline', async (ctx) => {
      ctx.audit.target_kind = 'case';
      ctx.audit.target_id = id(ctx);
      return { status: 200, body: await cases.timeline(p(ctx), id(ctx)) };
    }],
    ['getCaseGraph', async (ctx) => {
      ctx.audit.target_kind = 'case';
      ctx.audit.target_id = id(ctx);
      return { status: 200, body: await cases.graph(p(ctx), id(ctx)) };
    }],
    ['changeCaseMembers', async (ctx) => ({ status: 200, body: await cases.members(ctx, p(ctx), id(ctx), ctx.body) })],
    ['holdCase', async (ctx) => ({ status: 200, body: await cases.hold(ctx, p(ctx), id(ctx), ctx.body) })],
    ['releaseCase', async (ctx) => ({ status: 200, body: await cases.release(ctx, p(ctx), id(ctx), ctx.body) })],
    ['reviewCase', async (ctx) => ({ status: 200, body: await cases.review(ctx, p(ctx), id(ctx), ctx.body) })],
    ['closeCase', async (ctx) => {
      const finding = (ctx.query as { finding?: string }).finding ?? null;
      return { status: 200, body: await cases.close(ctx, p(ctx), id(ctx), finding) };
    }],
    ['createCaseAssertion', async (ctx) => ({ status: 201, body: await cases.assert(ctx, p(ctx), id(ctx), ctx.body) })],
    ['intakeCase', async (ctx) => ({ status: 201, body: await cases.intake(ctx, p(ctx), id(ctx), ctx.body as IntakeManifest) })],
    // 202: the hop's inquiry may still reason; its revisions follow on the case stream.
    ['expandCase', async (ctx) => ({ status: 202, body: (await expansion.expand(ctx, p(ctx), id(ctx), ctx.body as CaseExpandIn)).inquiry })],
    ['exportCase', async (ctx) => ({ status: 202, body: await exports.request(ctx, p(ctx), id(ctx), (ctx.query as { format: string }).format) })],
    ['getCaseExport', async (ctx) => {
      ctx.audit.target_kind = 'case_export';
      ctx.audit.target_id = ctx.params.export_id!;
      return { status: 200, body: await exports.view(p(ctx), id(ctx), ctx.params.export_id!) };
    }],
    ['downloadCaseExport', async (ctx) => {
      const exportId = ctx.params.export_id!;
      ctx.audit.target_kind = 'case_export';
      ctx.audit.target_id = exportId;
      const bundle = await exports.download(p(ctx), id(ctx), exportId);
      return {
        status: 200, raw: bundle, contentType: 'application/gzip',
        headers: { 'Content-Disposition': `attachment; filename="case-${id(ctx)}-export-${exportId}.tar.gz"` },
      };
    }],
  ];
}
