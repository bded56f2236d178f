import type { NormalisedPresentation } from '../checks/types.js';
import type { Grants } from '../registry/index.js';
import type { ObservationNote, SessionContext } from '../../machines/sessionMachine.js';
import type { Deriver } from './derive.js';
import { testimonySignal, type Additions, type SessionFacts } from './evaluate.js';
import { extractIdentifiers } from '../checks/extractIdentifiers.js';
import type { Frame, Refusal } from './frames.js';
import { MAX_OBSERVATIONS_PER_SESSION, MAX_PRESENTATIONS_PER_SESSION } from './limits.js';
import { withListing } from '../registry/index.js';

/**
 * What one accepted frame contributes to its session, decided under the
 * actor's row lock from the session's current context: the additions to its
 * evidence (already derived for the retention mode), the extras its ack
 * carries back, and the derived values its `session_frames` row keeps. A
 * rule that refuses the frame throws FrameRefused, which rolls the command
 * back; the refusal is then recorded on its own.
 */
export class FrameRefused extends Error {
  override name = 'FrameRefused';
  constructor(readonly refusal: Refusal) {
    super(refusal.msg);
  }
}

export interface FrameIntake {
  /** Null: the frame adds no evidence (a line with no identifier in it). */
  additions: Additions | null;
  observations: ObservationNote[];
  ack: Record<string, unknown>;
  derived: Record<string, unknown>;
}

export interface IntakeInput {
  seq: number;
  frame: Exclude<Frame, { type: 'close' }>;
  context: SessionContext;
  facts: SessionFacts;
  deriver: Deriver;
  grants: Grants;
  now: Date;
}

/** Region for numbers written without a prefix: the claimed country as it stands now. */
const countryOf = (input: IntakeInput): string | undefined => input.context.claim?.country ?? input.facts.defaultCountry ?? undefined;

const refuse = (rule: string, field: string, msg: string): never => {
  throw new FrameRefused({ rule, field, msg });
};

function withinPresentationLimit(context: SessionContext, added: readonly NormalisedPresentation[]): void {
  const known = new Set(context.presentations.map((p) => `${p.type}\u0000${p.normalised}`));
  const fresh = new Set(added.map((p) => `${p.type}\u0000${p.normalised}`).filter((k) => !known.has(k)));
  if (known.size + fresh.size > MAX_PRESENTATIONS_PER_SESSION) {
    refuse('presentation_limit', '', `A session holds at most ${MAX_PRESENTATIONS_PER_SESSION} distinct presented values.`);
  }
}

function fromPresentation(input: IntakeInput & { frame: { type: 'presentation' } }): FrameIntake {
  const { presentation } = input.frame;
  if (!input.grants.artifactTypes.has(presentation.type)) {
    refuse('I15', 'presentation.type', withListing('I15', 'Not an artifact type registered to this tenant (rule I15).'));
  }
  const [derived] = input.deriver.presentations([presentation], countryOf(input));
  withinPresentationLimit(input.context, [derived!]);
  const identifiers = [{ type: derived!.type, normalised: derived!.normalised }];
  return { additions: { presentations: [derived!] }, observations: [], ack: { identifiers }, derived: { identifiers } };
}

function fromText(input: IntakeInput & { frame: { type: 'text' } }): FrameIntake {
  const { line } = input.frame;
  const country = countryOf(input);
  const found = extractIdentifiers(line, { ...(country ? { defaultCountry: country } : {}), allowedTypes: input.grants.artifactTypes });
  const derived = found.map((f) => ({
    ...f,
    presentation: input.deriver.presentations([{ type: f.presentation.type, value: line.slice(f.start, f.end) }], country)[0]!,
  }));
  withinPresentationLimit(
    input.context,
    derived.map((d) => d.presentation),
  );
  // Offsets and normalised values only: the line itself is never kept or sent back.
  const extracted = derived.map((d) => ({ type: d.presentation.type, start: d.start, end: d.end, normalised: d.presentation.normalised }));
  return {
    additions: derived.length > 0 ? { presentations: derived.map((d) => d.presentation) } : null,
    observations: [],
    ack: { extracted },
    derived: { extracted },
  };
}

function fromObservation(input: IntakeInput & { frame: { type: 'observation' } }): FrameIntake {
  const { frame, facts, context } = input;
  const consentRef = frame.consent_ref ?? facts.consentRef ?? undefined;
  const caseId = frame.case_id ?? facts.caseId ?? undefined;
  if (frame.provenance_class === 'self_attested' && consentRef === undefined) {
    refuse('D36', 'consent_ref', 'Self-attested testimony requires a consent_ref, on the frame or the session (rule D36).');
  }
  if (frame.provenance_class === 'analyst_asserted' && caseId === undefined) {
    refuse('D37', 'case_id', 'Analyst-asserted testimony requires a case_id, on the frame or the session (rule D37).');
  }
  if (context.testimony.length >= MAX_OBSERVATIONS_PER_SESSION) {
    refuse('observation_limit', '', `A session holds at most ${MAX_OBSERVATIONS_PER_SESSION} observations.`);
  }
  const dataClass = frame.data_class ?? 'C1';
  const observedAt = frame.observed_at ? new Date(frame.observed_at).toISOString() : input.now.toISOString();
  const signal = testimonySignal({
    seq: input.seq,
    provenanceClass: frame.provenance_class,
    dataClass,
    observedAt,
    about: context.presentations[0],
  });
  // The summary is content: only a standard session keeps it, to record it as an observation when it closes.
  const observations: ObservationNote[] =
    facts.retention === 'standard'
      ? [
          {
            provenance_class: frame.provenance_class,
            summary: frame.summary,
            observed_at: observedAt,
            data_class: dataClass,
            ...(consentRef ? { consent_ref: consentRef } : {}),
            ...(caseId ? { case_id: caseId } : {}),
          },
        ]
      : [];
  const meta = { provenance_class: frame.provenance_class, data_class: dataClass };
  return { additions: { testimony: [signal] }, observations, ack: meta, derived: meta };
}

function fromClaim(input: IntakeInput & { frame: { type: 'claim' } }): FrameIntake {
  const claim = input.deriver.claim(input.frame.claim);
  const fields = Object.keys(claim ?? {}).sort();
  return { additions: { claim }, observations: [], ack: { claim_fields: fields }, derived: { claim_fields: fields } };
}

export function intakeOf(input: IntakeInput): FrameIntake {
  switch (input.frame.type) {
    case 'presentation':
      return fromPresentation(input as IntakeInput & { frame: { type: 'presentation' } });
    case 'text':
      return fromText(input as IntakeInput & { frame: { type: 'text' } });
    case 'observation':
      return fromObservation(input as IntakeInput & { frame: { type: 'observation' } });
    case 'claim':
      return fromClaim(input as IntakeInput & { frame: { type: 'claim' } });
  }
}
