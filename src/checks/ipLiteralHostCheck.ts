import { describeType } from './artifactTypes.js';
import { OFFLINE, PUBLIC_FACT, absent, defineCheck, neutral, weakens } from './evidence.js';
import { hostOf, viewHost } from './hosts.js';

/**
 * Whether a web address, email or domain names a bare IP address instead of a
 * domain. Legitimate sites and mailboxes are reached by name; a bare address
 * avoids the accountability of a registered domain, so it weakens.
 */
export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'ip_literal_host',
    kind: 'ip_literal_host',
    artifactTypes: ['EMAIL', 'DOMAIN', 'URL'],
    trustBand: 'medium',
    dataClass: PUBLIC_FACT,
  },
  ({ presentation }) => {
    const host = hostOf(presentation);
    const what = describeType(presentation.type);
    if (host === null) return absent('no_data', `The ${what} has no host that could be checked.`);
    return viewHost(host).isIp
      ? weakens(`The ${what} points at a bare IP address instead of a domain name.`)
      : neutral(`The ${what} names its host by domain name.`);
  },
);
