/**
 * Glossary of the evidence model (see ../shared DESIGN.md 2.3, METHODOLOGY.md).
 *
 * - Presentation: what the caller presented, `{type, value}`; the type is a
 *   registered artifact type id (EMAIL, PHONE, DOMAIN, URL, IP, NAME, ACCOUNT...).
 * - Check: a module that answers one question (`kind`) about presentations of
 *   some artifact types. It never names its source in what it produces.
 * - Signal: one answer of a check. `supports` / `weakens` signals are evidence
 *   for the scoring function; `neutral` ones are counted and reported only.
 * - Absence: a check that ran or should have run and produced nothing usable.
 * - Tier: t0 inline computed, t1 network look-ups, t2 paid providers.
 */

// The evidence vocabulary is shared with the machines, which may import only their own folder.
import type { Absence, DataClass, NormalisedPresentation, Signal, Strength, SubjectClaim, Tier, TrustBand } from '../../machines/types.js';
export type {
  Absence,
  AbsenceKind,
  DataClass,
  Disposition,
  NormalisedPresentation,
  Signal,
  Strength,
  SubjectClaim,
  Tier,
  TrustBand,
} from '../../machines/types.js';

/**
 * What a check declares it can say, one entry per (kind, disposition): the
 * strength of a scored answer with the reason for it (section 7's guidance),
 * so the strength is a property of the question, never chosen per subject.
 * Neutral answers are reported only and carry no strength.
 */
export type EvidenceDeclaration =
  | {
      kind?: string;
      disposition: 'supports' | 'weakens';
      strength: Strength;
      reason: string;
      /**
       * Where no labelled corpus here can hold the fact (a network look-up,
       * testimony, an outcome), what a strength above `moderate` rests on: a
       * published measurement, or section 8's rule for the tenant's own
       * outcomes. Without it such a fact is at most `moderate`
       * (test/checks/measuredStrengths.test.ts).
       */
      cited?: string;
    }
  | { kind?: string; disposition: 'neutral'; reason: string };

/** A maintained data set a check reads, for the published table of checks. */
export interface DataSource {
  /** The npm package (or the script that built the list from a maintained source). */
  name: string;
  version: string;
  licence: string;
}

/**
 * What a check is given. runCheck hands it over as a ClockedContext
 * (src/checks/runCheck.ts), whose `signal` is made on first read: a field
 * added here must be copied there too, and a check that copies its context
 * (`{ ...ctx }`) must pass `signal` on itself.
 */
export interface CheckContext {
  presentation: NormalisedPresentation;
  /** Every presentation of the subject, for checks that compare them. */
  subject: NormalisedPresentation[];
  claim?: SubjectClaim;
  /**
   * The tenant's default country (its policy's `default_region`, ISO 3166
   * alpha-2): where a phone number written without a country code is read
   * when the claim gives no country it is valid in (src/checks/phoneParsing.ts).
   * Not a claim: nothing is said to agree or differ with it.
   */
  defaultCountry?: string;
  /** Evaluation time; checks stamp observed_at from it unless the source dates the fact. */
  now: Date;
  /** Aborted at the check's timeout or the inquiry's deadline. */
  signal: AbortSignal;
  /** Tenant records loaded by the engine (history, graph); absent when none were loaded. */
  env: CheckEnvironment;
}

export interface CheckResult {
  signals: Signal[];
  absences: Absence[];
}

/** What a check's answer is a fact about (CheckDefinition.judges). */
export type Judged = 'value' | 'host' | 'site' | 'domain';

export interface CheckDefinition {
  id: string;
  kind: string;
  artifactTypes: readonly string[];
  tier: Tier;
  provenanceClass: string;
  trustBand: TrustBand;
  dataClass: DataClass;
  /** Cost in the tenant's budget units (0 for computed checks). */
  cost: number;
  timeoutMs: number;
  /** `inline`: pure computation on the request path; `worker`: any I/O, run as a BullMQ job. */
  runs: 'inline' | 'worker';
  /** One line: what the check looks at (published in docs/checks.md and the OpenAPI document). */
  looksAt: string;
  /** Every (kind, disposition) the check can produce, with its strength and the reason for it. */
  declares: readonly EvidenceDeclaration[];
  /** The data the check reads, when it reads any beyond the presentation itself. */
  sources?: readonly DataSource[];
  /**
   * What its answers are facts about: the presented value (the default), or
   * only the host it names (an email's domain, a web address's host), the
   * site the host belongs to (its registrable domain, or its site on a shared
   * platform: `www.example.com` and `example.com` are one site), or the
   * registrable domain alone (a registry's record, a delegation). Such a
   * fact is one fact however many presentations name it, so its signals
   * carry `fact` and admission counts them once. An answer may say otherwise
   * for itself (SignalAnswer.judged).
   */
  judges?: Judged;
  /**
   * The snapshot of replaceable reference data its answers were read from
   * (`popularity:<file>@<sha256 prefix>`), when an operator can swap that
   * data without a release (a popularity list, a sanctions list). Every
   * signal the check gives carries it, and the assessment's ledger inputs
   * list the snapshots its evidence came from (`data_snapshots`), so an
   * answer names the data it used after the data has changed.
   */
  snapshot?: string;
  /**
   * Whether the check still runs on a presentation that is not a value of
   * its type (`not an email` as an EMAIL; src/checks/valueForm.ts). A check
   * that reads the value's content has nothing to read there and is not
   * planned: the form check alone reports the one fact. The form check and
   * the checks that read the tenant's records about the value as given (its
   * history, the entities sharing it, how often it was presented) say true.
   */
  runsOnMalformed?: boolean;
  run(ctx: CheckContext): Promise<CheckResult> | CheckResult;
  /**
   * For a worker check: while it knows it can look nothing up (its DNS
   * resolver is not answering), why; otherwise null. The plan then answers
   * it at once with an `error` absence giving that reason, on the request
   * path and without running it, so the caller does not wait for a queue
   * round trip to learn that nothing could be asked.
   */
  unreachableReason?(presentation: NormalisedPresentation): string | null;
  /** For a worker check with a service of its own: whether that service is failing now, for /healthz. */
  dependencyHealth?(): 'ok' | 'degraded';
}

/**
 * What the engine loads from the tenant's own records before checks run, so
 * the history and graph checks stay pure functions of their context.
 */
export interface EntityHistory {
  /** Earlier assessments of the resolved entity, oldest first. */
  assessments: { score: number; low: number; high: number; as_of: string }[];
  /** Tenant testimony about the entity. */
  observations: {
    provenance_class: string;
    summary: string;
    observed_at: string;
    /** The observation's id: two distinct reports are two items, however alike. */
    id?: string;
    /** Which way it points, as stored (given by the tenant or derived from the summary). */
    stance?: 'supports' | 'weakens' | 'neutral';
  }[];
  /** What happened after the tenant's earlier decisions. */
  outcomes: {
    kind: string;
    observed_at: string;
    /** The tenant's decision_ref: a report sent again for the same decision is the same report. */
    ref?: string;
  }[];
}

export interface GraphNeighbourhood {
  /** For each of the subject's normalised values: how many other entities of the tenant carry it. */
  shared: {
    type: string;
    value: string;
    normalised: string;
    /** Other survivors that own or were recently linked to the value. */
    otherEntities: number;
    /** How many of those the tenant already found bad (an adverse outcome or weakening testimony). */
    adverseEntities?: number;
  }[];
}

/** Testimony the caller attached to this very inquiry (`context`), with its stance. */
export interface InquiryTestimony {
  provenance_class: string;
  summary: string;
  observed_at: string;
  stance: 'supports' | 'weakens' | 'neutral';
}

/** How often each presented value was presented to the tenant before this inquiry. */
export interface PresentationVelocity {
  type: string;
  normalised: string;
  lastHour: number;
  lastDay: number;
}

export interface CheckEnvironment {
  history?: EntityHistory;
  velocity?: PresentationVelocity[];
  context?: InquiryTestimony[];
  graph?: GraphNeighbourhood;
}
