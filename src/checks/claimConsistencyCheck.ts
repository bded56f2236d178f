import { FREE_MAIL_DOMAINS } from './emailDomains.js';
import { OFFLINE, PERSONAL_FACT, defineCheck, neutral, supports, weakens, type SignalAnswer } from './evidence.js';
import { emailParts, hostOf, parseWebAddress, viewHost } from './hosts.js';
import { asCountryCode } from './normalise.js';
import { countryWording, readPhone, shareCallingCode } from './phoneParsing.js';
import type { CheckContext, NormalisedPresentation } from './types.js';

/**
 * Whether what was presented agrees with what the subject claims about itself
 * and with the other presentations: the phone's country against the claimed
 * country, the email's mailbox against the claimed name, the email's or site's
 * domain against the claimed website and email. Each comparison names its own
 * question in the signal's kind. Nothing to compare is no evidence and no
 * failure, so it yields nothing rather than an absence.
 */

/** Registrable domain of a presentation or of a claimed address/website, lower-case punycode. */
function registrableOf(presentation: Pick<NormalisedPresentation, 'type' | 'value'>): string | null {
  const host = hostOf(presentation);
  return host === null ? null : viewHost(host).registrable;
}

function claimedWebsiteDomain(website: string | undefined): string | null {
  const url = website === undefined ? null : parseWebAddress(website);
  return url === null ? null : registrableOf({ type: 'URL', value: url.href });
}

function claimedEmailDomain(email: string | undefined): string | null {
  return email === undefined ? null : registrableOf({ type: 'EMAIL', value: email });
}

function isFreeMail(email: string): boolean {
  const host = hostOf({ type: 'EMAIL', value: email });
  return host !== null && FREE_MAIL_DOMAINS.has(host);
}

/**
 * The phone's country against the claimed country. A number the plan gives
 * to a territory that shares the claimed country's calling code (a Guernsey
 * mobile under +44 and a claimed United Kingdom; a +1 number of the United
 * States and a claimed Canada) agrees: the code is all a caller chooses,
 * and the statement says why the two countries agree.
 */
function countryConsistency(ctx: CheckContext): SignalAnswer[] {
  const claimed = asCountryCode(ctx.claim?.country);
  const reading = readPhone(ctx);
  if (claimed === undefined || reading.status !== 'parsed' || !reading.number.isValid()) return [];
  const kind = 'phone_country_consistency';
  const { country, countryCallingCode } = reading.number;
  if (country === claimed) {
    return [neutral(`The phone number's country agrees with the claimed country, ${countryWording(claimed)}.`, { kind })];
  }
  if (country !== undefined && shareCallingCode(country, claimed)) {
    return [
      neutral(
        `The phone number belongs to ${countryWording(country)}, which shares calling code +${countryCallingCode} with the claimed country, ${countryWording(claimed)}: they agree.`,
        { kind },
      ),
    ];
  }
  return [
    country === undefined
      ? weakens(
          `The phone number is a non-geographic number (+${countryCallingCode}), not a number of the claimed country ${countryWording(claimed)}.`,
          {
            kind,
          },
        )
      : weakens(`The phone number belongs to ${countryWording(country)}, not the claimed country ${countryWording(claimed)}.`, { kind }),
  ];
}

/** Name tokens of three letters or more, folded to ASCII lower case. */
function nameTokens(name: string): string[] {
  const folded = name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  return folded.split(/[^a-z]+/).filter((token) => token.length >= 3);
}

function nameConsistency(ctx: CheckContext): SignalAnswer[] {
  const name = ctx.claim?.name;
  const parts = emailParts(ctx.presentation.value.trim());
  if (name === undefined || parts === null) return [];
  const tokens = nameTokens(name);
  if (tokens.length === 0) return [];
  const mailbox = parts.local.toLowerCase().replace(/[^a-z]/g, '');
  const kind = 'name_email_consistency';
  // A mismatch is common and innocent (nicknames, shared family addresses), so it is reported, not counted.
  return tokens.some((token) => mailbox.includes(token))
    ? [supports('The email mailbox contains part of the claimed name.', { kind })]
    : [neutral('The email mailbox does not contain any part of the claimed name.', { kind })];
}

function domainConsistency(ctx: CheckContext): SignalAnswer[] {
  const { presentation, claim } = ctx;
  if (presentation.type === 'EMAIL' && isFreeMail(presentation.value)) return [];
  const presented = registrableOf(presentation);
  if (presented === null) return [];
  const answers: SignalAnswer[] = [];
  const website = claimedWebsiteDomain(claim?.website);
  if (website !== null) {
    const kind = 'website_consistency';
    answers.push(
      website === presented
        ? supports(`The domain ${presented} matches the claimed website.`, { kind })
        : weakens(`The domain ${presented} differs from the claimed website's domain ${website}.`, { kind }),
    );
  }
  const email = claim?.email;
  const comparesEmail = presentation.type !== 'EMAIL' && email !== undefined && !isFreeMail(email);
  const emailDomain = comparesEmail ? claimedEmailDomain(email) : null;
  if (emailDomain !== null) {
    const kind = 'email_domain_consistency';
    // Organisations often run mail on another domain than their site, so a difference is reported only.
    answers.push(
      emailDomain === presented
        ? supports(`The domain ${presented} matches the claimed email address's domain.`, { kind })
        : neutral(`The domain ${presented} differs from the claimed email address's domain.`, { kind }),
    );
  }
  return answers.concat(copresentedConsistency(ctx, presented));
}

/** A company email whose domain matches a site presented alongside it supports both. */
function copresentedConsistency(ctx: CheckContext, presented: string): SignalAnswer[] {
  if (ctx.presentation.type !== 'EMAIL') return [];
  const sites = ctx.subject.filter((other) => other.type === 'DOMAIN' || other.type === 'URL').map(registrableOf);
  if (sites.length === 0) return [];
  const kind = 'copresented_domain_consistency';
  return sites.includes(presented)
    ? [supports(`The email domain ${presented} matches a site presented with it.`, { kind })]
    : [neutral(`The email domain ${presented} matches none of the sites presented with it.`, { kind })];
}

export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'claim_consistency',
    kind: 'claim_consistency',
    looksAt: "the subject's own claims (country, name, website, email) against what it presented",
    declares: [
      {
        kind: 'phone_country_consistency',
        disposition: 'neutral',
        reason:
          "Most subjects, good or bad, give the country of the number they give (or one that shares its calling code); a valid mobile or fixed line is phone_line_type's one support.",
      },
      {
        kind: 'phone_country_consistency',
        disposition: 'weakens',
        strength: 'moderate',
        reason: 'A claim that contradicts an observation is a real but modest indicator (travellers, expatriates).',
      },
      {
        kind: 'name_email_consistency',
        disposition: 'supports',
        strength: 'weak',
        reason: 'Many people put their name in their mailbox; it is easy to imitate.',
      },
      { kind: 'name_email_consistency', disposition: 'neutral', reason: 'Many genuine mailboxes carry no part of the name.' },
      {
        kind: 'website_consistency',
        disposition: 'supports',
        strength: 'weak',
        reason: 'Agreement with a claim is what nearly every honest subject shows.',
      },
      {
        kind: 'website_consistency',
        disposition: 'weakens',
        strength: 'moderate',
        reason: 'A claim that contradicts an observation is a real but modest indicator.',
      },
      {
        kind: 'email_domain_consistency',
        disposition: 'supports',
        strength: 'weak',
        reason: 'Agreement with a claim is what nearly every honest subject shows.',
      },
      { kind: 'email_domain_consistency', disposition: 'neutral', reason: 'People often write from a mailbox outside their own domain.' },
      {
        kind: 'copresented_domain_consistency',
        disposition: 'supports',
        strength: 'weak',
        reason: 'A mailbox on the site presented with it is ordinary and easy to arrange.',
      },
      {
        kind: 'copresented_domain_consistency',
        disposition: 'neutral',
        reason: 'People often write from a mailbox outside their own domain.',
      },
    ],
    artifactTypes: ['EMAIL', 'PHONE', 'DOMAIN', 'URL'],
    trustBand: 'medium',
    dataClass: PERSONAL_FACT,
  },
  (ctx) => {
    switch (ctx.presentation.type) {
      case 'PHONE':
        return countryConsistency(ctx);
      case 'EMAIL':
        return [...nameConsistency(ctx), ...domainConsistency(ctx)];
      default:
        return domainConsistency(ctx);
    }
  },
);
