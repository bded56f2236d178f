import { describe, expect, it } from 'vitest';
import { askOf } from '../../src/inquiries/index.js';
import { InquiryRequest } from '../../src/inquiries/schemas.js';
import { monitorAsk, rescanAsk } from '../../src/monitors/ask.js';

/**
 * A monitor asks inquiries' commands a domain value (issue 49 item 5), no
 * longer a request built as the wire would carry it. The ask is the one the
 * request mapped to, and a rescan claims its run's key with the hash it
 * always has, so an attempt of a run on either side of the change claims it alike.
 */
const question = {
  subject: { presentations: [{ type: 'EMAIL', value: 'a@example.com' }], claim: { name: 'A', country: 'GB' } },
  intent: 'pre_transaction',
  purpose: 'fraud_prevention',
  stake: { kind: 'payment' as const, amount: 120, currency: 'EUR', deadline_ms: 2500 },
};
const scopes = new Set(['inquiries', 'monitors']);
const RUN = 'run-0190b0c4';

describe("a monitor's ask", () => {
  it('is what the request a monitor used to build mapped to', () => {
    const before = askOf(InquiryRequest.parse({ ...question, tier_ceiling: 't2', render: 'none', mode: 'sync' }), scopes);
    expect(monitorAsk(question)).toEqual(before);
  });

  it("a rescan's ask and the hash of its key are those of the request rescans built before", () => {
    const before = askOf(InquiryRequest.parse({ ...question, idempotency_key: RUN }), scopes);
    const row = { ...question, subject: { ...question.subject, entity_id: undefined }, stake: { ...question.stake } };
    expect(rescanAsk(row, RUN, scopes)).toEqual(before);
    expect(rescanAsk(question, RUN, new Set(['inquiries'])).idempotency!.hash).not.toBe(before.idempotency!.hash);
  });

  it('a subject named by its entity alone', () => {
    const entity = { ...question, subject: { entity_id: '0190b0c4-7d3a-7000-8000-000000000003' } };
    expect(rescanAsk(entity, RUN, scopes)).toEqual(askOf(InquiryRequest.parse({ ...entity, idempotency_key: RUN }), scopes));
  });
});
