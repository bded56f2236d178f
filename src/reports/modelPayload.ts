import type { Assessment, Findings } from '../assessment/schemas.js';

/**
 * What the operator's model endpoint is shown: the assessment and the findings
 * with every presented value replaced by its artifact type. The model writes
 * prose about evidence; it never needs to know whose evidence it is, and a
 * value sent to a third endpoint cannot be called back.
 *
 * `about`, the subject echo and connection labels are replaced outright.
 * Statements and reasons are free text written by the checks and may repeat a
 * value, so every presented value (and the forms a check is likely to print:
 * any case, an e-mail's local part, a phone number's digits with or without
 * separators) is replaced inside them by `[TYPE]`.
 */

export interface ModelPayload {
  prompt_version: string;
  lang: string;
  assessment: Assessment;
  /** The findings with presented values replaced by their types; null when the tenant may not see findings. */
  findings: unknown;
}

interface Presented {
  type: string;
  value: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// Letters and digits on either side mean the match is part of a longer word (`Ann` in `annual`).
const WORD_BEFORE = '(?<![\\p{L}\\p{N}])';
const WORD_AFTER = '(?![\\p{L}\\p{N}])';
const SEP = '[\\s().-]*';

/** Patterns for one presented value, most specific first. */
function patternsFor(value: string): string[] {
  const v = value.trim();
  if (v.length === 0) return [];
  const out = [`${WORD_BEFORE}${escapeRegExp(v)}${WORD_AFTER}`];
  const at = v.lastIndexOf('@');
  // An e-mail's local part is the personal half; three characters keeps `me`-like fragments from eating words.
  if (at >= 3) out.push(`${WORD_BEFORE}${escapeRegExp(v.slice(0, at))}${WORD_AFTER}`);
  const digits = v.replace(/\D/g, '');
  // A phone number is printed in many forms (E.164, national with a trunk 0,
  // 00-prefixed, grouped): match any digit run, separators allowed, that ends
  // in the same last seven digits (the shortest subscriber number) after at
  // most eight more. Another number sharing those seven digits is redacted
  // too; leaking the subject's number would be the worse mistake.
  if (digits.length >= 7) {
    const tail = digits.slice(-7).split('').join(SEP);
    out.push(`(?<!\\d)\\+?(?:\\d${SEP}){0,8}${tail}(?!\\d)`);
  }
  return out;
}

/** A function replacing every presented value in a string by `[TYPE]`. */
export function presentedValueRedactor(presented: Presented[]): (text: string) => string {
  const rules = presented
    .filter((p) => p.value.trim().length > 0 && p.value.trim() !== p.type)
    .flatMap((p) => patternsFor(p.value).map((source) => ({ source, type: p.type })))
    .sort((a, b) => b.source.length - a.source.length)
    .map(({ source, type }) => ({ re: new RegExp(source, 'giu'), token: `[${type}]` }));
  return (text) => rules.reduce((acc, r) => acc.replace(r.re, r.token), text);
}

/** Every value the caller presented, as far as the findings show them. */
export function presentedValues(findings: Findings): Presented[] {
  return [
    ...findings.subject,
    ...(findings.findings ?? []).map((x) => ({ type: x.about_type, value: x.about })),
    ...(findings.absences ?? []).map((x) => ({ type: x.about_type, value: x.about })),
    ...(findings.connections ?? []).flatMap((c) => [
      { type: c.from_type, value: c.from_label },
      { type: c.to_type, value: c.to_label },
    ]),
  ];
}

function findingsWithoutValues(findings: Findings): unknown {
  const redact = presentedValueRedactor(presentedValues(findings));
  return {
    inquiry_id: findings.inquiry_id,
    assessment_id: findings.assessment_id,
    subject: findings.subject.map((p) => ({ type: p.type })),
    findings: (findings.findings ?? []).map((x) => ({ ...x, about: x.about_type, statement: redact(x.statement) })),
    absences: (findings.absences ?? []).map((x) => ({ ...x, about: x.about_type, reason: redact(x.reason) })),
    connections: (findings.connections ?? []).map((c) => ({
      ...c,
      from_label: c.from_type,
      to_label: c.to_type,
      reason: redact(c.reason),
    })),
    coverage: findings.coverage,
    generated_at: findings.generated_at,
  };
}

export function toModelPayload(input: {
  promptVersion: string;
  lang: string;
  assessment: Assessment;
  findings: Findings | null;
}): ModelPayload {
  return {
    prompt_version: input.promptVersion,
    lang: input.lang,
    // The resolved entity is the tenant's record of a person; prose needs none of it.
    assessment: { ...input.assessment, entity_id: null },
    findings: input.findings ? findingsWithoutValues(input.findings) : null,
  };
}
