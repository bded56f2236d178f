import { normalisePresentation } from '../../src/checks/normalise.js';
import type { CheckContext, CheckDefinition, CheckResult, NormalisedPresentation, Signal } from '../../src/checks/types.js';

export const NOW = new Date('2025-01-01T00:00:00Z');

export function presentation(type: string, value: string): NormalisedPresentation {
  return normalisePresentation(type, value) ?? { type, value, normalised: value.trim() };
}

/** A context for one presentation; the subject is that presentation alone unless given. */
export function contextFor(type: string, value: string, overrides: Partial<CheckContext> = {}): CheckContext {
  const presented = presentation(type, value);
  return { presentation: presented, subject: [presented], now: NOW, signal: new AbortController().signal, env: {}, ...overrides };
}

export async function runOn(
  check: CheckDefinition,
  type: string,
  value: string,
  overrides: Partial<CheckContext> = {},
): Promise<CheckResult> {
  return check.run(contextFor(type, value, overrides));
}

/** The only signal of a result, failing loudly when there is not exactly one. */
export function onlySignal(result: CheckResult): Signal {
  if (result.signals.length !== 1 || result.absences.length !== 0) {
    throw new Error(`expected exactly one signal, got ${JSON.stringify(result)}`);
  }
  return result.signals[0]!;
}

/** "supports" / "weakens" / "neutral", or "absence:<kind>" when the check answered with one absence. */
export function verdict(result: CheckResult): string {
  if (result.signals.length === 0 && result.absences.length === 1) return `absence:${result.absences[0]!.kind}`;
  if (result.signals.length === 0 && result.absences.length === 0) return 'nothing';
  return onlySignal(result).disposition;
}
