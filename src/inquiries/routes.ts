import { requirePrincipal } from '../auth/index.js';
import type { Handler, HandlerResult } from '../edge/handler.js';
import type { InquiryAnswer, InquiryService } from './service.js';
import { ValidationFailure } from '../platform/problems.js';
import { isStorable } from '../platform/storable.js';
import type { InquiryRequest } from './schemas.js';
import { askOf, inquiryBody, refuseUnservedMode } from './wire.js';

/**
 * POST /v1/inquiries (sync) and GET /v1/inquiries/{inquiry_id}, keyed by
 * operationId for app.ts's handler table. The commands answer domain values;
 * the wire is mapped here: the Idempotency-Key header into the request, the
 * outcome into the response with its URL (wire.ts) and its headers. The event stream of an inquiry is
 * in streams.ts with the other streams.
 */
export function inquiryHandlers(inquiries: InquiryService, publicUrl: () => string): [string, Handler][] {
  return [
    [
      'createInquiry',
      async (ctx) => {
        const principal = requirePrincipal(ctx);
        const body = withIdempotencyHeader(ctx.body as InquiryRequest, ctx.ex.headers['idempotency-key']);
        // The call's audit row names its purpose, a refusal's included.
        ctx.audit.purpose = body.purpose;
        refuseUnservedMode(body);
        const ask = askOf(body, principal.scopes);
        return answered(await inquiries.inquire(ctx, principal, ask, ctx.ex.headers['x-purpose']), publicUrl());
      },
    ],
    [
      'getInquiry',
      async (ctx) => {
        const inquiryId = ctx.params.inquiry_id!;
        ctx.audit.target_kind = 'inquiry';
        ctx.audit.target_id = inquiryId;
        return { status: 200, body: inquiryBody(await inquiries.view(requirePrincipal(ctx), inquiryId), publicUrl()) };
      },
    ],
  ];
}

/**
 * An inquiry's answer in HTTP: always 200 (SPEC: sync is the only mode
 * served), with its stream's address while it reasons, and marked when it
 * is a kept answer.
 */
function answered(answer: InquiryAnswer, publicUrl: string): HandlerResult {
  const body = inquiryBody(answer.inquiry, publicUrl);
  return { status: 200, body, ...(answer.replayed ? { headers: { 'Idempotent-Replayed': 'true' } } : {}) };
}

/**
 * The `Idempotency-Key` header (the IETF draft's name, as Stripe uses it) is
 * the body's `idempotency_key` by another name: the same rules apply (I17).
 * Both given and different is a 422 naming the header.
 */
export function withIdempotencyHeader(body: InquiryRequest, header: string | undefined): InquiryRequest {
  if (header === undefined) return body;
  const key = header.trim();
  if (key.length === 0 || key.length > 128 || !isStorable(key)) {
    throw new ValidationFailure([{ loc: ['header', 'Idempotency-Key'], msg: 'Give 1 to 128 characters.', type: 'string_too_long' }]);
  }
  if (body.idempotency_key !== undefined && body.idempotency_key !== key) {
    throw new ValidationFailure([
      {
        loc: ['header', 'Idempotency-Key'],
        msg: 'The header and the body name different idempotency keys.',
        type: 'idempotency_key_conflict',
      },
    ]);
  }
  return { ...body, idempotency_key: key };
}
