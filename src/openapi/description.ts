import { RULES } from '../platform/rules.js';
import { PROBLEM_TYPES, problemTypeUri, type ProblemSlug } from '../schemas/errors.js';
import { PARAMETERS, TRUST_METHOD_3 } from '../scoring/index.js';

/**
 * The prose of the document: what a tenant's engineer reads first on the
 * reference page. Conventions that hold for every operation live here once
 * rather than in forty operation descriptions.
 */

export const TAG_DESCRIPTIONS: Record<string, string> = {
  Inquiries: 'Score, honest interval and the tenant label for a subject, a purpose and a stake.',
  Observations: 'Tenant testimony about subjects; evidence with its provenance class, never a score.',
  Outcomes: 'What happened after a decision; feeds calibration per methodology version.',
  Material: 'Documents, images, audio, video and text: declared, stored by hash, extracted with bindings.',
  Cases: 'Investigations for investigative (KYB) tenants with an authorization record.',
  Monitors: 'Standing watches, rescanned on a cadence, announcing triggers.',
  Sessions: 'Live intake over WebSocket.',
  Entities: 'Resolved subjects and their append-only assessment ledger.',
  Registry: 'Artifact types, intents and purposes the calling tenant may use.',
  'Control plane': 'Keys, policies, webhooks and the audit trail (admin scope).',
  Health: 'Liveness and service health.',
  Documentation: 'This document and its reference page.',
  Webhooks: 'Deliveries to registered endpoints, signed per Standard Webhooks.',
};

function rulesTable(): string {
  const rows = Object.entries(RULES).map(([id, meaning]) => `| \`${id}\` | ${meaning} |`);
  return ['| Rule | Meaning |', '|---|---|', ...rows].join('\n');
}

function problemsTable(): string {
  const rows = (Object.keys(PROBLEM_TYPES) as ProblemSlug[]).map((slug) => {
    const p = PROBLEM_TYPES[slug];
    return `| ${p.status} | \`${problemTypeUri(slug)}\` | ${p.when} |`;
  });
  return ['| Status | Type | When |', '|---|---|---|', ...rows].join('\n');
}

export function infoDescription(build: string): string {
  return [
    'How much should a subject be trusted for a declared purpose at a declared stake, and how sure is the answer.',
    'An assessment carries an integer score 0-100, an interval (`low`, `high`) that widens when evidence is thin or in conflict, ' +
      "the methodology version, an evidence summary without source names, and the tenant's own policy label. " +
      'The service returns no decision.',
    `Build: \`${build}\`.`,
    '## Conventions',
    [
      '- **Keys.** `Authorization: Bearer tas_live_...` (or `tas_test_...`: test keys see only test data). ' +
        'Scopes are per capability family; a key without the scope gets 403 with `missing_scope`. No key or a revoked key: 401.',
      '- **Audit.** Every call, refused or not, writes exactly one audit row; its id is in the `X-Service-Audit-Id` response header.',
      '- **Closed objects.** Every request object is closed: an unknown field at any depth is a 422 with `type` `extra_forbidden`. ' +
        'A rule refusal is a 422 whose `type` is the rule id. Input values are never echoed.',
      '- **Other errors** are `application/problem+json` (RFC 9457) with `type`, `title`, `status`, `detail` and `audit_id`. ' +
        'An id of another tenant or mode is answered exactly like an unknown id (404). ' +
        'A method the path does not support is 405 with `Allow`.',
      '- **Streams.** Server-sent events: `event:` is the event type, `id:` its sequence, `data:` an EventEnvelope. ' +
        'Resume with `Last-Event-ID` (or `?after=`); a cursor older than the retained stream is 410, never a silent gap. ' +
        'A comment line is sent every 15 s as a heartbeat.',
      '- **Absences.** Checks that failed or did not answer are reported as absences inside a successful answer, never as HTTP errors.',
      strengthsConvention(),
      '- **Versioning.** Within `/v1` fields are added and never removed. Published assessments never change; a new policy changes labels, never scores.',
    ].join('\n'),
    '## Rules',
    'Every refusal names one of these rules (also in `x-rules`).',
    rulesTable(),
    '## Problem types',
    problemsTable(),
  ].join('\n\n');
}

/** The strengths as the current methodology weighs them, read from its own table so the text cannot drift from the code. */
function strengthsConvention(): string {
  const v3 = PARAMETERS.strengthWeightV3;
  const v2 = PARAMETERS.strengthWeight;
  return (
    `- **Strengths.** Every scored finding carries a \`strength\`. Under \`${TRUST_METHOD_3}\`, the methodology of every new assessment, ` +
    `\`weak\` ${v3.weak}, \`moderate\` ${v3.moderate}, \`strong\` ${v3.strong}, on the scale of observations, multiply the item's weight: ` +
    `one item of weight w moves the odds by w + 1, so each is about a likelihood ratio of ${v3.weak + 1}, ${v3.moderate + 1} and ${v3.strong + 1} ` +
    'before the trust band, provenance and age discounts. A strength is measured, not chosen: a check declares, per kind and disposition, ' +
    'the strength its measured likelihood ratio supports (the lower end of its 90 % interval: strong from 6, moderate from 2.8, weak from 1.4; ' +
    'below that the finding is neutral, reported and never scored). The table is `x-check-catalogue` and docs/checks.md. ' +
    `Assessments of earlier versions keep their numbers (\`trust-method/2\`: ${v2.weak}, ${v2.moderate}, ${v2.strong}) and reproduce from their ledger entries.`
  );
}
