import { createRequire } from 'node:module';
import { answerAboutHost } from './hostAnswer.js';
import { OFFLINE, PUBLIC_FACT, defineCheck, neutral, weakens } from './evidence.js';
import { parseWebAddress, viewHost } from './hosts.js';

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
 *
 * The IPFS network is shared hosting by its addressing, not by a list: a
 * public gateway serves anyone's content by its content identifier, either
 * in the path (`https://ipfs.io/ipfs/<cid>/login.html`, `/ipns/<name>`) or
 * as a sub-domain (`https://<cid>.ipfs.dweb.link/`), the two forms of the
 * IPFS gateway specifications. The gateway's own domain is a brand's; the
 * page is nobody's, so a web address of either form is treated as a site on
 * shared hosting, whatever gateway serves it.
 */
// Content identifiers: CIDv0 (base58btc, 46 characters from `Qm`) and CIDv1 in base32 (`b` then 58 or more).
const CID = /^(?:Qm[1-9A-HJ-NP-Za-km-z]{44}|b[a-z2-7]{58,})$/;

/** The IPFS gateway form of a web address ('path' or 'subdomain'), or null when it is an ordinary site. */
export function ipfsGatewayForm(url: URL): 'path' | 'subdomain' | null {
  const [, namespace, name] = url.pathname.split('/');
  if ((namespace === 'ipfs' && name !== undefined && CID.test(name)) || (namespace === 'ipns' && name !== undefined && name !== ''))
    return 'path';
  const [first, second] = url.hostname.split('.');
  return first !== undefined && CID.test(first) && (second === 'ipfs' || second === 'ipns') ? 'subdomain' : null;
}

const TLDTS_VERSION = (createRequire(import.meta.url)('tldts/package.json') as { version: string }).version;

export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'shared_hosting',
    judges: 'site',
    kind: 'shared_hosting',
    looksAt:
      'whether the host (or the email domain) is a site under a shared hosting or platform suffix (public suffix list, private section), or a web address serves IPFS content through a gateway',
    declares: [
      {
        disposition: 'weakens',
        strength: 'moderate',
        reason:
          'A free platform sub-domain has no registrant and costs nothing: measured several times more often on bad subjects, though honest projects (and a few companies on shared second-level names) use them too.',
      },
      { disposition: 'neutral', reason: 'A registered domain of its own is ordinary.' },
    ],
    artifactTypes: ['EMAIL', 'DOMAIN', 'URL'],
    trustBand: 'medium',
    dataClass: PUBLIC_FACT,
    sources: [{ name: 'tldts (public suffix list, private section)', version: TLDTS_VERSION, licence: 'MIT (list: MPL-2.0)' }],
  },
  ({ presentation }) =>
    answerAboutHost(presentation, (host, what) => {
      const url = presentation.type === 'URL' ? parseWebAddress(presentation.value) : null;
      if (url !== null && ipfsGatewayForm(url) !== null) {
        return weakens(`The ${what} serves content from the IPFS network through a public gateway, where anyone can publish.`, {
          judged: 'value',
        });
      }
      const platform = viewHost(host).platform;
      // An address is not a site: say where its mailbox is.
      const subject = presentation.type === 'EMAIL' ? `The ${what}'s domain` : `The ${what}`;
      return platform === null
        ? neutral(`${subject} is not a site on a shared hosting platform.`)
        : weakens(`${subject} is a site on the shared hosting platform ${platform.suffix}, where a name needs no registration.`);
    }),
);
