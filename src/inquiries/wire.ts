import type { InquiryOutcome } from './view.js';

/**
 * An inquiry on the wire (InquiryResponse): the outcome a command answers,
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
