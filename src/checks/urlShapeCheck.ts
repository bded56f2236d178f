import { OFFLINE, PUBLIC_FACT, absent, defineCheck, neutral, weakens, type SignalAnswer } from './evidence.js';
import { parseWebAddress, viewHost } from './hosts.js';

/**
 * How a web address is built, where the build itself deceives:
 * - credentials before the host (`https://paypal.com@evil.example/`): the
 *   reader sees the first name, the browser goes to the second;
 * - a punycode (internationalised) host label, which renders as something
 *   other than what it is (the homograph check judges the script mix);
 * - many sub-domain levels (`secure.login.account.example.com`), which push
 *   the real registrable domain out of sight on a phone screen.
 * Each is its own kind with its own strength; an address with none is
 * ordinary and reported neutral.
 */
// Four labels or more left of the registrable domain hide it on a narrow screen.
const DEEP_SUBDOMAIN_LEVELS = 4;

function shapeAnswers(url: URL): SignalAnswer[] {
  const answers: SignalAnswer[] = [];
  if (url.username !== '' || url.password !== '') {
    answers.push(weakens('The web address puts credentials before its host, so it reads as a different site from the one it opens.', { kind: 'url_userinfo' }));
  }
  const view = viewHost(url.hostname);
  if (!view.isIp && url.hostname.split('.').some((label) => label.startsWith('xn--'))) {
    answers.push(weakens('The web address has an internationalised (punycode) host, which displays differently from what it is.', { kind: 'url_punycode_host' }));
  }
  const levels = view.subdomain === '' ? 0 : view.subdomain.split('.').length;
  if (levels >= DEEP_SUBDOMAIN_LEVELS) {
    answers.push(weakens(`The web address has ${levels} sub-domain levels before its registrable domain.`, { kind: 'url_deep_subdomains' }));
  }
  return answers.length > 0 ? answers : [neutral('The web address is built in an ordinary way.')];
}

export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'url_shape',
    kind: 'url_shape',
    looksAt: 'how the web address is built: credentials before the host, punycode host, sub-domain depth',
    declares: [
      { kind: 'url_userinfo', disposition: 'weakens', strength: 'strong', reason: 'Credentials before the host have almost no honest use in a link and exist to mislead the reader.' },
      { kind: 'url_punycode_host', disposition: 'weakens', strength: 'weak', reason: 'Internationalised names are honest in many languages; only together with other signs do they mislead.' },
      { kind: 'url_deep_subdomains', disposition: 'weakens', strength: 'weak', reason: 'Deep sub-domains hide the real domain, though large sites use them too.' },
      { disposition: 'neutral', reason: 'An ordinarily built address says nothing either way.' },
    ],
    artifactTypes: ['URL'],
    trustBand: 'medium',
    dataClass: PUBLIC_FACT,
  },
  ({ presentation }) => {
    const url = parseWebAddress(presentation.value);
    if (url === null) return absent('no_data', 'The web address could not be read.');
    return shapeAnswers(url);
  },
);
