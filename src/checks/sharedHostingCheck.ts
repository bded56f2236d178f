import { createRequire } from 'node:module';
import { answerAboutHost } from './hostAnswer.js';
import { OFFLINE, PUBLIC_FACT, defineCheck, neutral, weakens } from './evidence.js';
import { viewHost } from './hosts.js';

/**
 * Whether the site lives under a shared hosting or platform suffix, from the
 * private section of the public suffix list that tldts carries (`web.app`,
 * `github.io`, `pages.dev`, `blogspot.com`...). Such a name costs nothing,
 * needs no registration and leaves no registrant: the cheapest place to put a
 * phishing page, and also where many honest projects live, so it is weak.
 * A mailbox at such a name (`someone@mail-7.dynv6.net`) is weak for the same
 * reason: mail providers and companies receive mail at registered domains,
 * while throw-away inbox services hide behind free dynamic-DNS and platform
 * names. The platform's own domain (`github.io` itself) is not a site on it.
 */
const TLDTS_VERSION = (createRequire(import.meta.url)('tldts/package.json') as { version: string }).version;

export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'shared_hosting',
    kind: 'shared_hosting',
    looksAt: 'whether the host (or the email domain) is a site under a shared hosting or platform suffix (public suffix list, private section)',
    declares: [
      { disposition: 'weakens', strength: 'weak', reason: 'A free platform sub-domain has no registrant and costs nothing, but honest projects (and a few companies on shared second-level names) use them too.' },
      { disposition: 'neutral', reason: 'A registered domain of its own is ordinary.' },
    ],
    artifactTypes: ['EMAIL', 'DOMAIN', 'URL'],
    trustBand: 'medium',
    dataClass: PUBLIC_FACT,
    sources: [{ name: 'tldts (public suffix list, private section)', version: TLDTS_VERSION, licence: 'MIT (list: MPL-2.0)' }],
  },
  ({ presentation }) =>
    answerAboutHost(presentation, (host, what) => {
      const platform = viewHost(host).platform;
      // An address is not a site: say where its mailbox is.
      const subject = presentation.type === 'EMAIL' ? `The ${what}'s domain` : `The ${what}`;
      return platform === null
        ? neutral(`${subject} is not a site on a shared hosting platform.`)
        : weakens(`${subject} is a site on the shared hosting platform ${platform.suffix}, where a name needs no registration.`);
    }),
);
