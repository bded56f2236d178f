import type { z } from 'zod';
import { RULES, type RuleId } from './rules.js';

/**
 * The small family of errors every layer raises: a stable code, the status
 * and title the edge answers with, and never a caller's input value. It is
 * platform, not HTTP: capabilities raise these without knowing how they are
 * framed; the edge renders every one other than a 422 as an RFC 9457 problem
 * document and a 422 in the HTTPValidationError shape.
 */
export interface ValidationItem {
  loc: (string | number)[];
  msg: string;
  type: string;
  /** Extension (issue 51): on a purpose or intent the tenant's policy refused, that policy's version and what it allows. */
  policy?: { policy_version: number; allowed: string[] };
}

export class ValidationFailure extends Error {
  override name = 'ValidationFailure';
  constructor(
    readonly detail: ValidationItem[],
    /** The rule refused, for the audit row (I13...), when it was a rule and not a shape. */
    readonly rule: RuleId | null = null,
  ) {
    super('validation failed');
  }

  static rule(rule: RuleId, loc: (string | number)[], msg: string): ValidationFailure {
    return new ValidationFailure([{ loc, msg, type: rule }], rule);
  }
}

export type ProblemCode =
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'method-not-allowed'
  | 'conflict'
  | 'payload-too-large'
  | 'unsupported-media-type'
  | 'rate-limited'
  | 'not-implemented'
  | 'engine-failed'
  | 'unavailable'
  | 'gone';

const TITLES: Record<ProblemCode, [number, string]> = {
  unauthorized: [401, 'Unauthorized'],
  forbidden: [403, 'Forbidden'],
  'not-found': [404, 'Not Found'],
  'method-not-allowed': [405, 'Method Not Allowed'],
  conflict: [409, 'Conflict'],
  'payload-too-large': [413, 'Payload Too Large'],
  'unsupported-media-type': [415, 'Unsupported Media Type'],
  'rate-limited': [429, 'Too Many Requests'],
  'not-implemented': [501, 'Not Implemented'],
  'engine-failed': [502, 'Bad Gateway'],
  unavailable: [503, 'Service Unavailable'],
  gone: [410, 'Gone'],
};

export const PROBLEM_TYPE_BASE = 'urn:tas:problem:';

export class ServiceProblem extends Error {
  override name = 'ServiceProblem';
  readonly status: number;
  readonly title: string;
  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    const [status, title] = TITLES[code];
    this.status = status;
    this.title = title;
  }

  /** A refusal of the call itself (a 4xx), met again on every retry of the same call; a 5xx is the service failing. */
  get refusesTheCall(): boolean {
    return this.status < 500;
  }

  toBody(auditId: string): Record<string, unknown> {
    return {
      type: PROBLEM_TYPE_BASE + this.code,
      title: this.title,
      status: this.status,
      detail: this.detail,
      audit_id: auditId,
      ...this.extra,
    };
  }
}

/** Zod issues to HTTPValidationError items, with our stable type names and no input echoed. */
export function zodToValidation(error: z.ZodError, root: 'body' | 'query' | 'path'): ValidationFailure {
  const detail: ValidationItem[] = [];
  let firstRule: RuleId | null = null;
  for (const issue of error.issues) {
    const loc: (string | number)[] = [root, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) detail.push({ loc: [...loc, key], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' });
      continue;
    }
    if (issue.code === 'invalid_type' && issue.input === undefined) {
      detail.push({ loc, msg: 'Field required', type: 'missing' });
      continue;
    }
    const rule = issue.code === 'custom' ? ruleOf(issue.params) : null;
    if (rule) {
      detail.push({ loc, msg: issue.message, type: rule });
      firstRule ??= rule;
      continue;
    }
    detail.push({ loc, msg: issue.message, type: issue.code });
  }
  return new ValidationFailure(detail, firstRule);
}

/** Schema-level refusals (zod `custom` issues) carry the rule they enforce in `params.rule`. */
function ruleOf(params: unknown): RuleId | null {
  const rule = (params as { rule?: unknown } | undefined)?.rule;
  return typeof rule === 'string' && rule in RULES ? (rule as RuleId) : null;
}
