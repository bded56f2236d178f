import { describeType } from './artifactTypes.js';
import { OFFLINE, PUBLIC_FACT, absent, defineCheck, neutral, weakens } from './evidence.js';
import { hostOf, viewHost } from './hosts.js';
import { URL_SHORTENER_DOMAINS } from './wellKnownDomains.js';

/**
 * Whether the web address goes through a link shortener. A shortened link
 * hides its destination until it is followed, which is why it is preferred for
 * phishing; honest use exists, so the band is medium.
 */
export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'url_shortener',
    kind: 'url_shortener',
    artifactTypes: ['URL', 'DOMAIN'],
    trustBand: 'medium',
    dataClass: PUBLIC_FACT,
  },
  ({ presentation }) => {
    const host = hostOf(presentation);
    const what = describeType(presentation.type);
    if (host === null) return absent('no_data', `The ${what} has no host that could be checked.`);
    const registrable = viewHost(host).registrable;
    const isShortener = [host, registrable].some((domain) => domain !== null && URL_SHORTENER_DOMAINS.has(domain));
    return isShortener
      ? weakens(`The ${what} is a link shortener, which hides where the link leads.`)
      : neutral(`The ${what} is not a known link shortener.`);
  },
);
