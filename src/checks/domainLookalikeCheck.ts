import { domainToUnicode } from 'node:url';
import { answerAboutHost } from './hostAnswer.js';
import { OFFLINE, PUBLIC_FACT, absent, defineCheck, neutral, weakens, type SignalAnswer } from './evidence.js';
import { viewHost, type HostView } from './hosts.js';
import { confusableSkeleton, damerauLevenshtein } from './stringDistance.js';
import { WELL_KNOWN_DOMAINS } from './wellKnownDomains.js';

/**
 * Whether a domain imitates a well-known one: a typo of its name (edit
 * distance on the registrable label), a name that reads the same (`paypa1`),
 * the name embedded as a token (`paypal-login`), or the whole well-known
 * domain used as a sub-domain of another (`paypal.com.verify.example`).
 * Sharing a name under another suffix (`amazon.de`) is not held against the
 * subject: large brands own many country domains.
 */
interface KnownDomain {
  domain: string;
  label: string;
  skeleton: string;
}

const KNOWN: readonly KnownDomain[] = WELL_KNOWN_DOMAINS.map((domain) => {
  const label = viewHost(domain).label ?? domain;
  return { domain, label, skeleton: confusableSkeleton(label) };
});

export type Resemblance =
  | { kind: 'is_well_known' | 'same_name_other_suffix' | 'confusable' | 'embedded_name' | 'subdomain_imitation'; known: string }
  | { kind: 'typo'; known: string; distance: number };

/**
 * Short names collide with ordinary words (`apply` is not `apple`), so the
 * distance allowed grows with the name: none below five characters, one
 * insertion, deletion or swap at five, any one edit from six, two from ten.
 */
export function isTypoOf(candidate: string, known: string): number | null {
  if (known.length < 5) return null;
  const distance = damerauLevenshtein(candidate, known);
  if (distance === 0) return null;
  if (known.length >= 10) return distance <= 2 ? distance : null;
  if (distance !== 1) return null;
  if (known.length >= 6) return 1;
  return isSingleSubstitution(candidate, known) ? null : 1;
}

function isSingleSubstitution(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let differences = 0;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) differences += 1;
  return differences === 1;
}

export function resemblance(view: HostView): Resemblance | null {
  if (view.registrable === null || view.label === null) return null;
  const exact = KNOWN.find((known) => known.domain === view.registrable);
  if (exact) return { kind: 'is_well_known', known: exact.domain };
  const imitated = KNOWN.find((known) => `.${view.subdomain}.`.includes(`.${known.domain}.`));
  if (imitated) return { kind: 'subdomain_imitation', known: imitated.domain };
  const sameName = KNOWN.find((known) => known.label === view.label);
  if (sameName) return { kind: 'same_name_other_suffix', known: sameName.domain };
  const label = domainToUnicode(view.label) || view.label;
  const skeleton = confusableSkeleton(label);
  const confusable = KNOWN.find((known) => known.label.length >= 4 && known.skeleton === skeleton);
  if (confusable) return { kind: 'confusable', known: confusable.domain };
  const typo = closestTypo(label);
  if (typo) return typo;
  const tokens = label.split(/[-0-9]+/);
  const embedded = KNOWN.find((known) => known.label.length >= 3 && tokens.includes(known.label));
  return embedded ? { kind: 'embedded_name', known: embedded.domain } : null;
}

function closestTypo(label: string): Resemblance | null {
  let best: Resemblance | null = null;
  for (const known of KNOWN) {
    const distance = isTypoOf(label, known.label);
    if (distance !== null && (best === null || (best.kind === 'typo' && distance < best.distance))) {
      best = { kind: 'typo', known: known.domain, distance };
    }
  }
  return best;
}

function answerFor(found: Resemblance | null, view: HostView): SignalAnswer {
  const domain = view.registrable ?? view.hostname;
  if (found === null) return neutral(`The domain ${domain} does not resemble any of the well-known domains it was compared with.`);
  switch (found.kind) {
    case 'is_well_known':
      return neutral(`The domain is the well-known domain ${found.known} itself.`);
    case 'same_name_other_suffix':
      return neutral(`The domain ${domain} shares its name with the well-known domain ${found.known} under a different suffix.`);
    case 'subdomain_imitation':
      return weakens(`The host ${view.hostname} begins like the well-known domain ${found.known} but belongs to ${domain}.`);
    case 'confusable':
      return weakens(`The domain ${domain} reads like the well-known domain ${found.known} at a glance.`);
    case 'typo': {
      const edits = found.distance === 1 ? '1 edit' : `${found.distance} edits`;
      return weakens(`The domain ${domain} is ${edits} away from the well-known domain ${found.known}, a pattern used to imitate it.`);
    }
    case 'embedded_name':
      return weakens(`The domain ${domain} contains the name of the well-known domain ${found.known} without belonging to it.`);
  }
}

export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'domain_lookalike',
    kind: 'domain_lookalike',
    looksAt: "the registrable domain against well-known domains (typos, confusables, embedded names)",
    declares: [
      { disposition: 'weakens', strength: 'strong', reason: 'A look-alike of a well-known brand exists to deceive; alone it changes what an analyst would do.' },
      { disposition: 'neutral', reason: 'Not resembling a well-known domain, or being one, says nothing either way.' },
    ],
    artifactTypes: ['EMAIL', 'DOMAIN', 'URL'],
    trustBand: 'medium',
    dataClass: PUBLIC_FACT,
  },
  ({ presentation }) =>
    answerAboutHost(presentation, (host, what) => {
      const view = viewHost(host);
      if (view.isIp) return neutral(`The ${what} names an IP address, which has no name to compare.`);
      if (view.registrable === null) return absent('no_data', `The ${what} has no registrable domain to compare.`);
      return answerFor(resemblance(view), view);
    }),
);
