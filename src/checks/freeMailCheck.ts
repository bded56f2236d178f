import { FREE_MAIL_DOMAINS, FREE_MAIL_SOURCE } from './emailDomains.js';
import { OFFLINE, PERSONAL_FACT, absent, defineCheck, neutral } from './evidence.js';
import { hostOf } from './hosts.js';

/**
 * Whether the address is at a consumer mailbox provider. Most honest people
 * use one, so the answer is reported but never counted for or against; the
 * claim-consistency check uses the same list to avoid comparing a free-mail
 * domain with a claimed company website.
 */
export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'free_mail',
    judges: 'site',
    kind: 'free_mail',
    looksAt: 'whether the email domain is a free consumer mailbox provider',
    declares: [{ disposition: 'neutral', reason: 'Free mail is what most honest people use: reported, never scored.' }],
    artifactTypes: ['EMAIL'],
    trustBand: 'high',
    dataClass: PERSONAL_FACT,
    sources: [FREE_MAIL_SOURCE],
  },
  ({ presentation }) => {
    const host = hostOf(presentation);
    if (host === null) return absent('no_data', 'The email address has no domain that could be checked.');
    return FREE_MAIL_DOMAINS.has(host)
      ? neutral('The email address is at a free consumer mailbox provider.')
      : neutral('The email address is not at a known free consumer mailbox provider.');
  },
);
