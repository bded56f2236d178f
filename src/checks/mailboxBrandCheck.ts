import { BRAND_SOURCES } from './brandDomains.js';
import { FREE_MAIL_DOMAINS, FREE_MAIL_SOURCE, ROLE_LOCAL_PARTS, ROLE_SOURCE } from './emailDomains.js';
import { domainOfDistinctiveName } from './domainLookalikeCheck.js';
import { OFFLINE, PERSONAL_FACT, absent, defineCheck, neutral, weakens } from './evidence.js';
import { emailParts, viewHost } from './hosts.js';
import { lureWordIn } from './lureWords.js';

/**
 * A free mailbox that presents itself as a well-known brand's desk
 * (`paypal.support@gmail.com`, `coinbase-help@outlook.com`,
 * `netflixbilling@mail.ru`): the sender shape of impersonation and support
 * scams. A brand's staff write from the brand's own domain. Only a
 * distinctive brand name (six letters or more, not an ordinary word) beside
 * a role or lure word counts: a brand name alone, or beside a person's name,
 * is too often a person's own name (`mercedes.garcia@`, `ferrari.luca@`).
 * Only at a free mail provider: at a company's own domain the same name is
 * its staff's desk for a product they use (`salesforce.admin@acme.example`),
 * and a look-alike domain is judged by the domain checks.
 */
// Run together with a brand's name, a service word needs enough letters not to be a name's ending.
const MIN_WORD = 4;

/** A role (support, billing, security...) or lure (verify, login...) word. */
function isServiceWord(word: string): boolean {
  return word.length >= MIN_WORD && (ROLE_LOCAL_PARTS.has(word) || lureWordIn(word) === word);
}

/** The well-known domain a token names beside a service word (`paypalsupport`, `helpnetflix`), or null. */
function brandBesideServiceWord(token: string): string | null {
  for (let i = MIN_WORD; i <= token.length - MIN_WORD; i += 1) {
    const left = token.slice(0, i);
    const right = token.slice(i);
    const named =
      (isServiceWord(right) ? domainOfDistinctiveName(left) : null) ?? (isServiceWord(left) ? domainOfDistinctiveName(right) : null);
    if (named !== null) return named;
  }
  return null;
}

/** The well-known domain the mailbox name presents itself as a desk of, or null. */
export function brandDeskIn(local: string): string | null {
  const tokens = (local.toLowerCase().split('+')[0] ?? '').split(/[^a-z]+/).filter((t) => t !== '');
  const brands = tokens.map((t) => domainOfDistinctiveName(t));
  const named = brands.find((d): d is string => d !== null);
  if (named !== undefined && tokens.some((t, i) => brands[i] === null && isServiceWord(t))) return named;
  for (const token of tokens) {
    const joined = brandBesideServiceWord(token);
    if (joined !== null) return joined;
  }
  return null;
}

export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'mailbox_brand',
    kind: 'mailbox_brand',
    looksAt: "whether a free mailbox's name presents itself as a well-known brand's desk (the brand beside a role or lure word)",
    declares: [
      {
        disposition: 'weakens',
        strength: 'moderate',
        reason:
          "A brand's support or billing desk at someone else's domain is how impersonation accounts are named; a few resellers and fans name theirs so too.",
      },
      {
        disposition: 'neutral',
        reason: "A mailbox that names no brand's desk, or names one at a domain of its own, says nothing either way.",
      },
    ],
    artifactTypes: ['EMAIL'],
    trustBand: 'medium',
    dataClass: PERSONAL_FACT,
    sources: [...BRAND_SOURCES, ROLE_SOURCE, FREE_MAIL_SOURCE],
  },
  ({ presentation }) => {
    const parts = emailParts(presentation.value.trim());
    if (parts === null) return absent('no_data', 'The email address has no mailbox part that could be checked.');
    const brand = brandDeskIn(parts.local);
    if (brand === null) return neutral("The mailbox name does not present itself as a well-known brand's desk.");
    const domain = parts.domain.toLowerCase();
    // A provider's own desk at its own mail service (a brand that is also a mail provider) is its own.
    if (viewHost(domain).label === viewHost(brand).label) return neutral(`The mailbox writes as ${brand} from its own domain.`);
    if (!FREE_MAIL_DOMAINS.has(domain))
      return neutral(`The mailbox names a desk of ${brand} at a domain of its own, not at a free mail provider.`);
    return weakens(
      `The mailbox name presents itself as a desk of the well-known domain ${brand}, at a free mail provider anyone can sign up to.`,
    );
  },
);
