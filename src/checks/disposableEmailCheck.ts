import { DISPOSABLE_SOURCES, isDisposableDomain } from './emailDomains.js';
import { OFFLINE, PERSONAL_FACT, absent, defineCheck, neutral, weakens } from './evidence.js';
import { hostOf, viewHost } from './hosts.js';

/**
 * Whether the address is at a throw-away inbox service. Such an address costs
 * nothing and is abandoned at will, so it weakens; any other domain is merely
 * not known to be disposable, which is no evidence either way.
 */
export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'disposable_email',
    judges: 'site',
    kind: 'disposable_email',
    looksAt: 'the email domain against maintained lists of throw-away inbox services',
    declares: [
      {
        disposition: 'weakens',
        strength: 'strong',
        reason: 'A disposable inbox costs nothing and is abandoned at will; alone it changes what an analyst would do.',
      },
      { disposition: 'neutral', reason: 'Not being on the list says nothing either way.' },
    ],
    artifactTypes: ['EMAIL'],
    trustBand: 'high',
    dataClass: PERSONAL_FACT,
    sources: DISPOSABLE_SOURCES,
  },
  ({ presentation }) => {
    const host = hostOf(presentation);
    if (host === null) return absent('no_data', 'The email address has no domain that could be checked.');
    // Services hand out sub-domains too (`x.mailinator.com`), so the registrable domain is checked as well.
    return isDisposableDomain(host, viewHost(host).registrable)
      ? weakens('The email address is at a disposable inbox service.')
      : neutral('The email domain is not a known disposable inbox service.');
  },
);
