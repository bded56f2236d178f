import { answerAboutHost } from './hostAnswer.js';
import { OFFLINE, PUBLIC_FACT, defineCheck, neutral, weakens } from './evidence.js';
import { viewHost } from './hosts.js';
import { URL_SHORTENER_DOMAINS } from './urlShortenerDomains.js';

/**
 * Whether the web address goes through a link shortener. A shortened link
 * hides its destination until it is followed, which is why it is preferred for
 * phishing; honest use exists, so the band is medium.
 */
export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'url_shortener',
    judges: 'site',
    kind: 'url_shortener',
    looksAt: 'whether the host is a link-shortening service',
    declares: [
      { disposition: 'weakens', strength: 'moderate', reason: 'A shortener hides where a link leads: a real but modest indicator.' },
      { disposition: 'neutral', reason: 'Not a shortener says nothing either way.' },
    ],
    artifactTypes: ['URL', 'DOMAIN'],
    trustBand: 'medium',
    dataClass: PUBLIC_FACT,
  },
  ({ presentation }) =>
    answerAboutHost(presentation, (host, what) => {
      const registrable = viewHost(host).registrable;
      const isShortener = [host, registrable].some((domain) => domain !== null && URL_SHORTENER_DOMAINS.has(domain));
      return isShortener
        ? weakens(`The ${what} is a link shortener, which hides where the link leads.`)
        : neutral(`The ${what} is not a known link shortener.`);
    }),
);
