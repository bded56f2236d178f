import { domainToUnicode } from 'node:url';
import { answerAboutHost } from './hostAnswer.js';
import { OFFLINE, PUBLIC_FACT, defineCheck, neutral, weakens, type SignalAnswer } from './evidence.js';
import { viewHost } from './hosts.js';
import { imitatedDomain } from './domainLookalikeCheck.js';
import { LATIN_LOOKALIKES } from './stringDistance.js';

/**
 * Whether a host name uses internationalised characters to imitate another
 * name: letters of several scripts in one label (`pаypal` with a Cyrillic
 * `а`), a label written wholly in letters drawn like Latin ones, or an `xn--`
 * label that does not even decode. Single-script internationalised names are
 * ordinary and reported only. Mixing rules follow Unicode TS 39's "highly
 * restrictive" profile: one script, or Latin with the CJK combinations.
 * When the deceptive name reads as a well-known domain, the look-alike check
 * counts that imitation and this one reports it neutrally: one deception,
 * one item of evidence.
 */
const SCRIPTS = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Armenian',
  'Hebrew',
  'Arabic',
  'Han',
  'Hiragana',
  'Katakana',
  'Hangul',
  'Bopomofo',
  'Thai',
  'Devanagari',
  'Georgian',
  'Cherokee',
] as const;
const SCRIPT_PATTERNS = SCRIPTS.map((script) => [script, new RegExp(`^\\p{Script=${script}}$`, 'u')] as const);
const SCRIPT_NEUTRAL = /^[\p{Script=Common}\p{Script=Inherited}]$/u;
const ALLOWED_MIXES: readonly (readonly string[])[] = [
  ['Latin', 'Han', 'Hiragana', 'Katakana'],
  ['Latin', 'Han', 'Bopomofo'],
  ['Latin', 'Han', 'Hangul'],
];

export function scriptsOf(label: string): Set<string> {
  const scripts = new Set<string>();
  for (const char of label) {
    if (SCRIPT_NEUTRAL.test(char)) continue;
    scripts.add(SCRIPT_PATTERNS.find(([, pattern]) => pattern.test(char))?.[0] ?? 'Other');
  }
  return scripts;
}

function isMixedScript(scripts: Set<string>): boolean {
  if (scripts.size <= 1) return false;
  return !ALLOWED_MIXES.some((allowed) => [...scripts].every((script) => allowed.includes(script)));
}

function isWholeScriptLookalike(label: string, scripts: Set<string>): boolean {
  if (scripts.size !== 1 || scripts.has('Latin')) return false;
  const letters = Array.from(label).filter((char) => !SCRIPT_NEUTRAL.test(char));
  return letters.length > 0 && letters.every((char) => LATIN_LOOKALIKES.has(char));
}

/** The first deceptive label found, as a weakening answer, or null. */
function deceptionIn(labels: readonly string[], what: string): SignalAnswer | null {
  for (const label of labels) {
    const unicode = label.startsWith('xn--') ? domainToUnicode(label) : label;
    if (unicode === '' || unicode.startsWith('xn--')) {
      return weakens(`The ${what} contains an internationalised label that does not decode to valid characters.`);
    }
    const scripts = scriptsOf(unicode);
    if (isMixedScript(scripts)) {
      return weakens(
        `The ${what} mixes ${[...scripts].sort().join(' and ')} letters in the label "${unicode}", a common way to imitate another name.`,
      );
    }
    if (isWholeScriptLookalike(unicode, scripts)) {
      return weakens(`The ${what} has the label "${unicode}", written in ${[...scripts][0]} letters that look like Latin ones.`);
    }
  }
  return null;
}

export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'domain_homograph',
    judges: 'host',
    kind: 'domain_homograph',
    looksAt: "the host's scripts and punycode (mixed scripts, whole-script look-alikes)",
    declares: [
      {
        disposition: 'weakens',
        strength: 'moderate',
        reason: 'A homograph imitates another name by design; too rare in the corpora here to measure, so at most moderate.',
      },
      {
        disposition: 'neutral',
        reason:
          'Plain or consistently scripted names are ordinary; a homograph of a well-known domain is one deception, counted once, as a look-alike.',
      },
    ],
    artifactTypes: ['EMAIL', 'DOMAIN', 'URL'],
    trustBand: 'high',
    dataClass: PUBLIC_FACT,
  },
  ({ presentation }) =>
    answerAboutHost(presentation, (host, what) => {
      if (viewHost(host).isIp) return neutral(`The ${what} names an IP address, which has no letters to imitate a name with.`);
      const labels = host.split('.');
      const deception = deceptionIn(labels, what);
      if (deception !== null) {
        // The mixed letters are how the name imitates a brand, when it does: domain_lookalike counts that
        // imitation, and counting the letters too would count one deception twice.
        const imitated = imitatedDomain(host);
        return imitated === null
          ? deception
          : neutral(
              `${deception.statement} It reads as the well-known domain ${imitated}, and that imitation is counted once, as a look-alike.`,
            );
      }
      return labels.some((label) => label.startsWith('xn--'))
        ? neutral(`The ${what} uses internationalised characters with no deceptive mix of scripts.`)
        : neutral(`The ${what} uses only plain ASCII characters in its host name.`);
    }),
);
