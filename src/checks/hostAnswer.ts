import { describeType } from './artifactTypes.js';
import { absent, type Answer } from './evidence.js';
import { hostOf } from './hosts.js';
import type { NormalisedPresentation } from './types.js';

/**
 * The shared start of every check that asks about the host a presentation
 * names (an email's domain, a URL's host, a domain): no host is `no_data`,
 * otherwise the question is asked of the host, worded for the value's type.
 * (Not a module with a `check` export: discovery treats it as a helper.)
 */
export function answerAboutHost(
  presentation: Pick<NormalisedPresentation, 'type' | 'value'>,
  answer: (host: string, what: string) => Answer,
): Answer {
  const host = hostOf(presentation);
  const what = describeType(presentation.type);
  if (host === null) return absent('no_data', `The ${what} has no host that could be checked.`);
  return answer(host, what);
}
