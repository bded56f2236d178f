import { requestHash } from '../platform/idempotency.js';
import { ValidationFailure } from '../platform/problems.js';
import { askSubjectOf, type InquiryAsk } from './ask.js';
import type { InquiryRequest } from './schemas.js';
import type { InquiryOutcome } from './view.js';

/**
 * The inquiry's wire, both ways. Out (InquiryResponse): the outcome a command answers,
 * with the address of its event stream while it still reasons. The one
 * place the inquiry's URL is built; its route and a case's expansion (which
 * answers the inquiry it ran) map through it.
 */
export interface InquiryView extends InquiryOutcome {
  events_url?: string;
}

export function inquiryBody(outcome: InquiryOutcome, publicUrl: string): InquiryView {
  if (outcome.status === 'concluded') return outcome;
  return { ...outcome, events_url: `${publicUrl}/v1/inquiries/${outcome.inquiry_id}/events` };
}

/**
 * An inquiry's request as its commands take it. The key's claim hashes the
 * request as sent with the caller's scopes (src/platform/idempotency.ts), so
 * a retry is the same call whatever its material held, and a kept answer
 * (findings included) replays only to a key that could have asked for it.
 */
export function askOf(request: InquiryRequest, scopes: ReadonlySet<string>): InquiryAsk {
  return {
    subject: askSubjectOf(request.subject),
    intent: request.intent,
    purpose: request.purpose,
    // Kept whole, as the facts have always kept it (its deadline and currency included).
    stake: request.stake,
    ...(request.stake.deadline_ms !== undefined ? { deadlineMs: request.stake.deadline_ms } : {}),
    tierCeiling: request.tier_ceiling,
    render: request.render,
    ...(request.render_lang !== undefined ? { renderLang: request.render_lang } : {}),
    testimony: request.context ?? [],
    materialIds: request.material_ids ?? [],
    idempotency:
      request.idempotency_key === undefined ? null : { key: request.idempotency_key, hash: requestHash({ body: request }, scopes) },
  };
}

/** Rule I16: only `sync` is served; a request for `async` or `stream` is refused before any work. */
export function refuseUnservedMode(request: Pick<InquiryRequest, 'mode'>): void {
  if (request.mode !== 'sync') {
    throw ValidationFailure.rule('I16', ['body', 'mode'], 'Only sync mode is served; async and stream are refused (rule I16).');
  }
}
