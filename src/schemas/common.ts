import { z } from 'zod';
import { ALL_SCOPES } from './operation.js';

/**
 * Building blocks shared by every family of the contract.
 *
 * Every object is a `z.strictObject`: SPEC.md says all objects are closed, so
 * an unknown field at any depth is an `unrecognized_keys` issue, which the
 * edge answers as 422 `extra_forbidden`.
 *
 * Named shapes go through `component()`: it sets `.meta({ id, description })`
 * (what zod's JSON Schema output reads) and also records the shape in
 * `apiComponents`, our own registry. The OpenAPI generator converts that
 * registry rather than zod's global one, so a schema some other module tags
 * with an id can never leak into the published document.
 */
export const apiComponents = z.registry<{ id: string; description: string }>();

export function component<T extends z.ZodType>(id: string, description: string, schema: T): T {
  const named = schema.meta({ id, description });
  apiComponents.add(named, { id, description });
  return named;
}

/**
 * A refusal the schema itself can decide but that belongs to a published rule
 * (RULES in src/platform/rules.ts). The issue is `custom` with `params.rule`, so the
 * edge can put the rule id in the 422 `type` instead of a generic code.
 */
export function ruleIssue<T>(ctx: z.core.$RefinementCtx<T>, rule: string, path: (string | number)[], message: string): void {
  ctx.addIssue({ code: 'custom', message, path, params: { rule } });
}

// Scalars. Request strings are bounded so a single field cannot make a request
// expensive to log, hash or store; ids are shorter than presented values.
/**
 * Any 8-4-4-4-12 hex id (format `uuid`), the same test the edge applies to
 * path parameters; `z.uuid()` would also demand an RFC 9562 version and
 * variant, refusing in a body an id the path accepts.
 */
export const uuid = z.guid();
/** ISO 8601 with an explicit zone (`Z` or an offset); the service answers in `Z`. */
export const dateTime = z.iso.datetime({ offset: true });
export const idString = z.string().min(1).max(128);
export const valueString = z.string().min(1).max(512);
/** Free text written by a person (testimony, notes): longer than a value, still bounded. */
export const noteString = z.string().min(1).max(2000);
export const count = z.int().min(0);
export const score100 = z.int().min(0).max(100);

export const TrustBand = z.enum(['high', 'medium', 'low']);
/** METHODOLOGY.md section 8 (trust-method/3): weak 1, moderate 3, strong 8; section 7 (trust-method/2): 0.5, 1, 2. */
export const Strength = z.enum(['weak', 'moderate', 'strong']);
export const MethodologyVersionName = z.enum(['trust-method/1', 'trust-method/2', 'trust-method/3']);
export const DataClass = z.enum(['C0', 'C1', 'C2']).describe('Handling the fact requires: C0 open, C1 personal, C2 special category.');
export const Tier = z.enum(['t0', 't1', 't2']).describe('Provider tier: t0 inline computed, t1 network look-ups, t2 paid providers.');
export const RetentionMode = z
  .enum(['standard', 'transient'])
  .describe('`transient`: raw content is processed and never stored (rule D35).');
/** Capability-family scopes of an API key (DESIGN.md 2.6), plus `admin` for the control plane. */
export const ScopeName = z.enum(ALL_SCOPES);
export const StakeKind = z.enum(['payment', 'credit', 'account', 'listing', 'hire', 'belief', 'other']);

export const Presentation = component(
  'Presentation',
  'A value the caller presented, with its registered artifact type (from GET /v1/registry/artifact-types).',
  z.strictObject({
    type: idString.describe('Registered artifact type id, for example `EMAIL`, `PHONE`.'),
    value: valueString.describe('Presented value; normalised by the service.'),
  }),
);

export const Claim = component(
  'Claim',
  'What the subject says about itself. Checked for consistency against the presentations; never taken as true.',
  z.strictObject({
    name: valueString.optional(),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .optional()
      .describe('ISO 3166-1 alpha-2, upper case.'),
    email: valueString.optional(),
    phone: valueString.optional(),
    organisation: valueString.optional(),
    website: valueString.optional(),
  }),
);

const subjectFields = z.strictObject({
  // 32 presentations is far more than one real subject carries; the cap
  // bounds the fan-out of checks one request can start.
  presentations: z.array(Presentation).max(32).optional(),
  entity_id: idString.optional().describe('A subject resolved before.'),
  claim: Claim.optional(),
});

/** A session's subject may be no more than a claim: its frames bring the presentations (issue 18). */
export const SessionSubject = component(
  'SessionSubject',
  'Who a live intake is about, as far as known when it opens: presentations, an entity, a claim, or only some of them; frames add the rest.',
  subjectFields,
);

export const Subject = component(
  'Subject',
  'Who or what the question is about: presented values, an entity resolved before, or both (rule I18).',
  subjectFields.superRefine((subject, ctx) => {
    if ((subject.presentations?.length ?? 0) === 0 && subject.entity_id === undefined) {
      ruleIssue(ctx, 'I18', ['presentations'], 'A subject must carry at least one presentation or an entity_id.');
    }
  }),
);

export const Stake = component(
  'Stake',
  'What the truster stands to lose; it fixes how narrow the interval must be and how much evidence is worth gathering.',
  z.strictObject({
    kind: StakeKind,
    amount: z.number().min(0).max(1e15).optional(),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional()
      .describe('ISO 4217 code, upper case.'),
    reversible: z.boolean().optional().describe('Whether the truster can undo the act afterwards.'),
    // 50 ms is the least in which even inline checks can answer; 30 s is the
    // longest a synchronous HTTP caller should hold a connection open.
    deadline_ms: z.int().min(50).max(30000).optional().describe('Milliseconds the caller can wait for a first answer (default 3000).'),
  }),
);

export const Label = component(
  'Label',
  "The tenant's own policy label and the version of the policy that applied it.",
  z.strictObject({
    value: z.string(),
    policy_version: z.int().min(1),
  }),
);

export type Presentation = z.infer<typeof Presentation>;
export type Claim = z.infer<typeof Claim>;
export type Subject = z.infer<typeof Subject>;
export type Stake = z.infer<typeof Stake>;
export type Label = z.infer<typeof Label>;
