import type { SubjectClaim, Tier } from '../checks/types.js';
import type { Subject } from '../schemas/common.js';
import type { Stake } from '../scoring/index.js';
import type { IdempotencyClaim } from './idempotency.js';

/**
 * What an inquiry is asked, as its commands take it (`inquire`, `probe`,
 * `estimate`): a domain value, not the wire's request. The route maps the
 * request to it (wire.ts `askOf`: the Idempotency-Key header taken in, the
 * key's claim hashed from the request as sent); a monitor and a case's
 * expansion build theirs directly (src/monitors/ask.ts, src/cases/expand.ts
 * `hopAsk`). Testimony keeps the field names of the engine's own testimony
 * (src/checks InquiryTestimony).
 */
export interface InquiryAsk {
  subject: {
    presentations: { type: string; value: string }[];
    entityId?: string;
    claim?: SubjectClaim;
  };
  intent: string;
  purpose: string;
  stake: Stake;
  /** How long the caller waits for a first answer, in milliseconds (the service's default when absent). */
  deadlineMs?: number;
  tierCeiling: Tier;
  render: 'none' | 'template' | 'model';
  renderLang?: string;
  /** Testimony attached to the inquiry, kept as observations of it. */
  testimony: AttachedTestimony[];
  /** Material already ingested, whose extracted values join the subject. */
  materialIds: string[];
  /** The call's idempotency key and the hash of the call as sent; null without a key. */
  idempotency: IdempotencyClaim | null;
}

/** A subject as the contract writes it (presentations, entity_id, claim), as an ask holds it: the one mapping every asker uses. */
export function askSubjectOf(subject: Subject): InquiryAsk['subject'] {
  return {
    presentations: subject.presentations ?? [],
    ...(subject.entity_id !== undefined ? { entityId: subject.entity_id } : {}),
    ...(subject.claim !== undefined ? { claim: subject.claim } : {}),
  };
}

export interface AttachedTestimony {
  provenance_class: string;
  summary: string;
  stance?: 'supports' | 'weakens' | 'neutral';
  observed_at: string;
  purpose: string;
  data_class?: string;
  consent_ref?: string;
  case_id?: string;
}
