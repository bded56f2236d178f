import type { Absence, AbsenceKind, CheckContext, CheckDefinition, CheckResult, Disposition, Judged, Signal, Strength } from './types.js';
import { hostOf, viewHost, type HostView } from './hosts.js';

/**
 * What a check answers, before the shared fields (about, band, provenance,
 * observed_at) are stamped on. Checks return answers instead of building
 * signals by hand so that every signal carries the definition's declared
 * band and provenance, and nothing else can slip in.
 */
export type Answer = SignalAnswer | AbsenceAnswer;

export interface SignalAnswer {
  disposition: Disposition;
  /** Plain English written by the check; never a source name or raw payload. */
  statement: string;
  /** The question answered, when the check answers more than one; defaults to the check's kind. */
  kind?: string;
  /** When the source dates the fact; defaults to the evaluation time. */
  observedAt?: Date;
  /** The tenant record this answer stands for, when it stands for one. */
  ref?: string;
  /**
   * The provenance the record was given with, for a check that relays tenant
   * testimony (self-attested, analyst-asserted...); defaults to the check's own.
   */
  provenanceClass?: string;
  /** What this answer is a fact about, when not what its check judges (a web address's path: `value`). */
  judged?: Judged;
}

export interface AbsenceAnswer {
  absence: AbsenceKind;
  reason: string;
}

export type CheckInfo = Omit<CheckDefinition, 'run'>;
export type Answerer = (ctx: CheckContext) => Answer | Answer[] | Promise<Answer | Answer[]>;

export function supports(statement: string, extra: Omit<SignalAnswer, 'disposition' | 'statement'> = {}): SignalAnswer {
  return { disposition: 'supports', statement, ...extra };
}

export function weakens(statement: string, extra: Omit<SignalAnswer, 'disposition' | 'statement'> = {}): SignalAnswer {
  return { disposition: 'weakens', statement, ...extra };
}

export function neutral(statement: string, extra: Omit<SignalAnswer, 'disposition' | 'statement'> = {}): SignalAnswer {
  return { disposition: 'neutral', statement, ...extra };
}

export function absent(kind: AbsenceKind, reason: string): AbsenceAnswer {
  return { absence: kind, reason };
}

/** Builds a CheckDefinition whose run turns answers into signals and absences. */
export function defineCheck(info: CheckInfo, answer: Answerer): CheckDefinition {
  const resultOf = (ctx: CheckContext, answers: Answer | Answer[]) => toResult(info, ctx, Array.isArray(answers) ? answers : [answers]);
  return {
    ...info,
    // A check that answers at once is answered at once: no promise, so runCheck can skip its timers
    // (src/checks/runCheck.ts). One that answers later keeps its promise. A throw stays a throw.
    run(ctx) {
      const answers = answer(ctx);
      return answers instanceof Promise ? answers.then((settled) => resultOf(ctx, settled)) : resultOf(ctx, answers);
    },
  };
}

export function toResult(info: CheckInfo, ctx: CheckContext, answers: readonly Answer[]): CheckResult {
  const result: CheckResult = { signals: [], absences: [] };
  for (const answer of answers) {
    if ('absence' in answer) result.absences.push(absenceFor(ctx, answer.absence, answer.reason));
    else result.signals.push(signalFor(info, ctx, answer));
  }
  return result;
}

/**
 * The declared strength of a (kind, disposition). An answer the check did not
 * declare is a programming error: it throws, so runCheck reports an `error`
 * absence instead of letting an undeclared, unweighed signal into the sum.
 */
export function declaredStrength(info: CheckInfo, kind: string, disposition: Disposition): Strength | undefined {
  const declaration = info.declares.find((d) => (d.kind ?? info.kind) === kind && d.disposition === disposition);
  if (declaration === undefined) throw new Error(`check ${info.id} did not declare ${kind}/${disposition}`);
  return declaration.disposition === 'neutral' ? undefined : declaration.strength;
}

export function signalFor(info: CheckInfo, ctx: CheckContext, answer: SignalAnswer): Signal {
  const kind = answer.kind ?? info.kind;
  const strength = declaredStrength(info, kind, answer.disposition);
  const signal: Signal = {
    kind,
    about: ctx.presentation.value,
    about_type: ctx.presentation.type,
    disposition: answer.disposition,
    statement: answer.statement,
    provenance_class: answer.provenanceClass ?? info.provenanceClass,
    trust_band: info.trustBand,
    data_class: info.dataClass,
    observed_at: (answer.observedAt ?? ctx.now).toISOString(),
  };
  if (strength !== undefined) signal.strength = strength;
  if (answer.ref !== undefined) signal.ref = answer.ref;
  const fact = factOf(answer.judged ?? info.judges, ctx.presentation);
  if (fact !== null) signal.fact = fact;
  if (info.snapshot !== undefined) signal.snapshot = info.snapshot;
  return signal;
}

interface PresentedPlaces {
  host: string;
  site: string;
  domain: string;
  view: HostView;
}

// Every check of an inquiry is handed the same presentation object: its host is parsed once, not once a signal.
const placesOfPresentations = new WeakMap<CheckContext['presentation'], PresentedPlaces | null>();

function presentedPlaces(presentation: CheckContext['presentation']): PresentedPlaces | null {
  let places = placesOfPresentations.get(presentation);
  if (places === undefined) {
    const host = hostOf(presentation);
    const view = host === null ? null : viewHost(host);
    places =
      host === null || view === null
        ? null
        : { host, site: view.platform?.site ?? view.registrable ?? host, domain: view.registrable ?? host, view };
    placesOfPresentations.set(presentation, places);
  }
  return places;
}

/**
 * The host a presentation names and how it reads (hosts.ts viewHost), or
 * null when it names none: parsed once per presentation object, the same
 * parse that stamps signals' facts, so a check asking it costs no second parse.
 */
export function presentedHost(presentation: CheckContext['presentation']): { host: string; view: HostView } | null {
  const places = presentedPlaces(presentation);
  return places === null ? null : { host: places.host, view: places.view };
}

/** The host, site or registrable domain an answer is a fact about, or null when it is about the presented value. */
function factOf(judged: Judged | undefined, presentation: CheckContext['presentation']): string | null {
  if (judged === undefined || judged === 'value') return null;
  const places = presentedPlaces(presentation);
  return places === null ? null : `${judged}:${places[judged]}`;
}

export function absenceFor(ctx: CheckContext, kind: AbsenceKind, reason: string): Absence {
  return { about: ctx.presentation.value, about_type: ctx.presentation.type, kind, reason };
}

/**
 * The shared fields of the offline checks: inline, free, computed here. The
 * timeout is generous for microsecond work because it only exists to stop a
 * pathological input (a huge value in a quadratic distance) from stalling a request.
 */
export const OFFLINE: Pick<CheckInfo, 'tier' | 'runs' | 'cost' | 'timeoutMs' | 'provenanceClass'> = {
  tier: 't0',
  runs: 'inline',
  cost: 0,
  timeoutMs: 50,
  provenanceClass: 'computed',
};

/**
 * Data classes used by the built-in checks: facts about public infrastructure
 * (domains, DNS, registries) are C0; facts about a person's contact points or
 * the tenant's own records about them are C1. Nothing built in handles C2.
 */
export const PUBLIC_FACT = 'C0' as const;
export const PERSONAL_FACT = 'C1' as const;
