/**
 * The one error the scoring modules throw: an input the methodology cannot be
 * applied to (a date that is not an instant, a band outside the table, a
 * negative absence count). It names the offending field so a caller (the HTTP
 * edge, the `tas score` CLI) can report it without parsing the message.
 * Never retryable: the same input fails the same way.
 */
export class ScoringInputError extends Error {
  readonly code = 'ERR_SCORING_INPUT';
  /** Path of the offending field, e.g. `evidence[2].observed_at`. */
  readonly field: string;

  constructor(field: string, problem: string) {
    super(`${field}: ${problem}`);
    this.name = 'ScoringInputError';
    this.field = field;
  }
}
