import { ServiceProblem } from '../platform/problems.js';

/**
 * Errors that are not ours (database, Redis, bugs) become a problem without
 * their message: a lost dependency is 503 with Retry-After, anything else is
 * 502 carrying the audit id of the attempt, as the contract says.
 */
const UNAVAILABLE_NAMES = new Set(['ConnectionError', 'BackendTerminatedError', 'StatementTimeoutError', 'MaxRetriesPerRequestError']);
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P03', '53300', '57014']);

export function classifyError(error: unknown): ServiceProblem {
  if (isDependencyDown(error)) {
    return new ServiceProblem('unavailable', 'A dependency of the service is unreachable; retry shortly.', {}, { 'Retry-After': '2' });
  }
  return new ServiceProblem('engine-failed', 'The engine could not complete this call; retry once.');
}

export function isDependencyDown(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth += 1) {
    const { name, code, message } = e as { name?: string; code?: string; message?: string };
    if (name && UNAVAILABLE_NAMES.has(name)) return true;
    if (code && UNAVAILABLE_CODES.has(code)) return true;
    if (
      message &&
      /Stream isn't writeable|Connection is closed|Command timed out|connect ECONNREFUSED|max retries per request|enableOfflineQueue|Connection terminated|Backend has been terminated|timeout exceeded when trying to connect/.test(
        message,
      )
    )
      return true;
  }
  return false;
}
