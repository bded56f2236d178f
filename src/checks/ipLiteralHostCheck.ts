import { answerAboutHost } from './hostAnswer.js';
import { OFFLINE, PUBLIC_FACT, defineCheck, neutral, weakens } from './evidence.js';
import { viewHost } from './hosts.js';

/**
 * Whether a web address, email or domain names a bare IP address instead of a
 * domain. Legitimate sites and mailboxes are reached by name; a bare address
 * avoids the accountability of a registered domain, so it weakens.
 */
export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'ip_literal_host',
    judges: 'host',
    kind: 'ip_literal_host',
    looksAt: 'whether the host is a bare IP address instead of a name',
    declares: [
      { disposition: 'weakens', strength: 'moderate', reason: 'Genuine services are reached by name; a bare IP hides who runs it.' },
      { disposition: 'neutral', reason: 'A host named by domain is ordinary.' },
    ],
    artifactTypes: ['EMAIL', 'DOMAIN', 'URL'],
    trustBand: 'medium',
    dataClass: PUBLIC_FACT,
  },
  ({ presentation }) =>
    answerAboutHost(presentation, (host, what) => {
      return viewHost(host).isIp
        ? weakens(`The ${what} points at a bare IP address instead of a domain name.`)
        : neutral(`The ${what} names its host by domain name.`);
    }),
);
