import { domainToUnicode } from 'node:url';
import { OFFLINE, PUBLIC_FACT, absent, defineCheck, neutral, weakens, type SignalAnswer } from './evidence.js';
import { hostOf, viewHost } from './hosts.js';
import { looksRandom } from './randomness.js';
import { ENGLISH_WORDS_SOURCE } from './englishWords.js';
import { lureWordIn } from './lureWords.js';
import { foldLabel, isWellKnownDomain } from './domainLookalikeCheck.js';

/**
 * How the site's own name (the registrable label, or its name on a hosting
 * platform) is built. Names chosen to be remembered are words; names made
 * in bulk, to be thrown away or to pass a filter, carry the marks studied in
 * the phishing and disposable-domain literature: several hyphens, mixed-in
 * digits, great length, a string no one would say aloud, or a lure word
 * (src/checks/lureWords.ts). An internationalised (punycode) label anywhere
 * in the host is one more weak sign: it shows the reader other letters than
 * the ones it is spelt with. Each is weak,
 * its own kind, and the thresholds are general rules, never fitted to a list.
 */
const MANY_HYPHENS = 2;
const MANY_DIGITS = 3;
const LONG_LABEL = 24;

/** The label as written, decoded from punycode: `xn--` and the encoding's own digits are not the name's. */
function readable(label: string): string {
  return label.startsWith('xn--') ? domainToUnicode(label) || label : label;
}

function shapeAnswers(asciiLabel: string, wellKnown: boolean): SignalAnswer[] {
  const answers: SignalAnswer[] = [];
  const label = readable(asciiLabel);
  const hyphens = (label.match(/-/g) ?? []).length;
  const digits = (label.match(/[0-9]/g) ?? []).length;
  const letters = (label.match(/\p{L}/gu) ?? []).length;
  if (hyphens >= MANY_HYPHENS)
    answers.push(weakens(`The domain name is made of ${hyphens + 1} hyphenated parts.`, { kind: 'domain_hyphens' }));
  if (digits >= MANY_DIGITS && letters > 0)
    answers.push(weakens('The domain name mixes several digits into its letters.', { kind: 'domain_digits' }));
  const length = Array.from(label).length;
  if (length >= LONG_LABEL) answers.push(weakens(`The domain name is ${length} characters long.`, { kind: 'domain_long_label' }));
  // A well-known name (airbnb, mysql) was chosen by people, however its letters read. Accents are
  // set aside so a marked Latin name is read by its letters; other scripts have no letters here to read.
  if (!wellKnown && looksRandom(foldLabel(asciiLabel).replace(/[-0-9]/g, '')))
    answers.push(neutral('The domain name reads as a random string, not a word.', { kind: 'domain_random_label' }));
  const lure = lureWordIn(foldLabel(asciiLabel));
  if (lure !== null)
    answers.push(
      weakens(`The domain name carries the word "${lure}", used to make a deceptive visit feel expected.`, { kind: 'domain_lure_word' }),
    );
  return answers.length > 0 ? answers : [neutral('The domain name is built like an ordinary name.')];
}

export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'domain_shape',
    judges: 'site',
    kind: 'domain_shape',
    looksAt: "how the site's own name is built: hyphens, digits, length, randomness, lure words, internationalised (punycode) labels",
    declares: [
      {
        kind: 'domain_hyphens',
        disposition: 'weakens',
        strength: 'weak',
        reason: 'Several hyphens are typical of names made to carry keywords (secure-login-verify), but honest too.',
      },
      {
        kind: 'domain_digits',
        disposition: 'weakens',
        strength: 'moderate',
        reason:
          'Digits mixed into a name are typical of names made in bulk; measured on bad subjects only, so no more than moderate: honest names have them too.',
      },
      {
        kind: 'domain_long_label',
        disposition: 'weakens',
        strength: 'weak',
        reason: 'Very long names hide the real one on a narrow screen; some honest names are long.',
      },
      {
        kind: 'domain_random_label',
        disposition: 'neutral',
        reason:
          "Measured: good subjects show it about as often as bad ones (institutions' acronyms read as random strings), so it is reported, never scored.",
      },
      {
        kind: 'domain_punycode',
        disposition: 'weakens',
        strength: 'moderate',
        reason:
          "Internationalised names imitate Latin ones far more often than the corpora's good subjects use them; no more than moderate, since they are honest in many languages.",
      },
      {
        kind: 'domain_lure_word',
        disposition: 'weakens',
        strength: 'moderate',
        reason:
          'Account chores and bait (login, verify, giveaway, airdrop) in a site name are measured far more often on phishing; no more than moderate, since honest sites use them too.',
      },
      { disposition: 'neutral', reason: 'An ordinary-looking name says nothing either way.' },
    ],
    artifactTypes: ['EMAIL', 'DOMAIN', 'URL'],
    trustBand: 'low',
    dataClass: PUBLIC_FACT,
    // The letter-pair model of randomness is trained on this word list.
    sources: [ENGLISH_WORDS_SOURCE],
  },
  ({ presentation }) => {
    const host = hostOf(presentation);
    if (host === null) return absent('no_data', 'There is no host whose name could be read.');
    const view = viewHost(host);
    const label = view.platform?.label ?? view.label;
    // An IP address or a bare suffix has no name of its own; other checks judge those.
    if (view.isIp || label === null) return [];
    const wellKnown = view.platform === null && view.registrable !== null && isWellKnownDomain(view.registrable);
    const answers = shapeAnswers(label.toLowerCase(), wellKnown);
    if (!host.split('.').some((part) => part.startsWith('xn--'))) return answers;
    const punycode = weakens('The host name is internationalised (punycode): it displays differently from how it is spelt.', {
      kind: 'domain_punycode',
    });
    return [...answers.filter((answer) => answer.disposition !== 'neutral'), punycode];
  },
);
