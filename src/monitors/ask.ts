import { askSubjectOf, type InquiryAsk } from '../inquiries/index.js';
import { requestHash } from '../platform/idempotency.js';
import { Stake, Subject } from '../schemas/common.js';
import type { MonitorCreate } from './schemas.js';
import type { MonitorRow } from './store.js';

/** What a monitor asks: the question declared when it opened. */
export type MonitorQuestion = Pick<MonitorCreate, 'subject' | 'intent' | 'purpose' | 'stake'>;

/**
 * The inquiry a monitor asks, as inquiries' commands take it (issue 49 item
 * 5): its declared question at tier t2, with no report, testimony or
 * material. Its opening's admission asks it without a key; a rescan with its
 * run id as the key (rescanAsk).
 */
export function monitorAsk(m: MonitorQuestion, idempotency: InquiryAsk['idempotency'] = null): InquiryAsk {
  return {
    subject: askSubjectOf(m.subject),
    intent: m.intent,
    purpose: m.purpose,
    stake: m.stake,
    ...(m.stake.deadline_ms !== undefined ? { deadlineMs: m.stake.deadline_ms } : {}),
    tierCeiling: 't2',
    render: 'none',
    testimony: [],
    materialIds: [],
    idempotency,
  };
}

/**
 * One rescan's ask, the run id its idempotency key. The key's hash is the one
 * rescans have always claimed it with, that of the inquiry request they used
 * to build (tier, render and mode at their defaults), so an attempt of a run
 * before this change and one after it claim the key alike.
 */
export function rescanAsk(
  monitor: Pick<MonitorRow, 'subject' | 'intent' | 'purpose' | 'stake'>,
  runId: string,
  scopes: ReadonlySet<string>,
): InquiryAsk {
  // The row's jsonb, parsed, not cast: it was a Subject and a Stake when the monitor opened.
  const question = {
    subject: Subject.parse(monitor.subject),
    intent: monitor.intent,
    purpose: monitor.purpose,
    stake: Stake.parse(monitor.stake),
  };
  const asSent = { ...question, tier_ceiling: 't2', render: 'none', mode: 'sync', idempotency_key: runId };
  return monitorAsk(question, { key: runId, hash: requestHash({ body: asSent }, scopes) });
}
