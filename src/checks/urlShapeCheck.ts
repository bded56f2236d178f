import { OFFLINE, PUBLIC_FACT, absent, defineCheck, neutral, weakens, type SignalAnswer } from './evidence.js';
import { parseWebAddress, viewHost } from './hosts.js';
import { BRAND_SOURCES } from './brandDomains.js';
import { domainOfDistinctiveName, isWellKnownDomain } from './domainLookalikeCheck.js';

/**
 * How a web address is built, where the build itself deceives:
 * - credentials before the host (`https://paypal.com@evil.example/`): the
 *   reader sees the first name, the browser goes to the second;
 * - many sub-domain levels (`secure.login.account.example.com`), which push
 *   the real registrable domain out of sight on a phone screen;
 * - a well-known domain written into the path of another site
 *   (`https://evil.example/www.paypal.com/signin`), so the address contains
 *   the brand's name where a hurried reader looks for it, or a folder named
 *   exactly after a distinctive brand with a page below it
 *   (`https://hacked.example/paypal/login.php`): phishing kits unpack into
 *   a folder named after the brand they imitate. A brand's name as the last
 *   part of a path (`/tag/paypal/`) is how blogs and shops file pages about
 *   it, so only a folder with something below it counts. The query is not
 *   read: honest links carry other sites in their return and tracking
 *   parameters all the time. A well-known site naming another in its own
 *   path (an archive, an analytics page) is left alone.
 * - a port that is not the scheme's own (`https://example.com:8443/`):
 *   public sites are reached on the default port, and a link naming another
 *   points at a service someone runs by hand, often a compromised host. A
 *   feature of the phishing-URL literature (Mohammad, Thabtah and
 *   McCluskey, "An assessment of features related to phishing websites
 *   using an automated technique", ICITST 2012: the UCI phishing-websites
 *   data set), common enough on honest links to be weak alone.
 * The scheme is not read: whether an address says http or https often
 * records how someone typed it into a form, not how the site is served;
 * what the site serves is a question for a network check.
 * Each is its own kind with its own strength; an address with none is
 * ordinary and reported neutral. A punycode host is the host's own shape,
 * judged once for every kind of subject by domain_shape.
 */
// Four labels or more left of the registrable domain hide it on a narrow screen.
const DEEP_SUBDOMAIN_LEVELS = 4;
// Something that reads as a host name: two or more dot-separated labels ending in letters.
const HOST_IN_TEXT = /(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}/g;

/** The first well-known domain written in the path that is not the site's own, or null. */
function brandInPath(url: URL, ownRegistrable: string | null): string | null {
  if (ownRegistrable !== null && isWellKnownDomain(ownRegistrable)) return null;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname).toLowerCase();
  } catch {
    path = url.pathname.toLowerCase();
  }
  for (const candidate of path.match(HOST_IN_TEXT) ?? []) {
    const registrable = viewHost(candidate).registrable;
    if (registrable !== null && registrable !== ownRegistrable && isWellKnownDomain(registrable)) return registrable;
  }
  return brandFolder(path, ownRegistrable);
}

/** The well-known domain a folder of the path is named after, when something lies below that folder; else null. */
function brandFolder(path: string, ownRegistrable: string | null): string | null {
  const segments = path.split('/');
  // The last segment is a page or nothing (a trailing slash), never a folder with something below it.
  for (let i = 1; i < segments.length - 1; i += 1) {
    if (segments[i + 1] === '') continue;
    const named = domainOfDistinctiveName(segments[i]!);
    if (named !== null && named !== ownRegistrable) return named;
  }
  return null;
}

function shapeAnswers(url: URL): SignalAnswer[] {
  const answers: SignalAnswer[] = [];
  // The URL parser drops a scheme's default port, so any port left is another one.
  if (url.port !== '') {
    answers.push(weakens(`The web address names port ${url.port}, not the default port of its scheme.`, { kind: 'url_port' }));
  }
  if (url.username !== '' || url.password !== '') {
    answers.push(
      weakens('The web address puts credentials before its host, so it reads as a different site from the one it opens.', {
        kind: 'url_userinfo',
      }),
    );
  }
  const view = viewHost(url.hostname);
  const levels = view.subdomain === '' ? 0 : view.subdomain.split('.').length;
  if (levels >= DEEP_SUBDOMAIN_LEVELS) {
    answers.push(
      weakens(`The web address has ${levels} sub-domain levels before its registrable domain.`, { kind: 'url_deep_subdomains' }),
    );
  }
  const named = view.isIp ? brandInPath(url, null) : brandInPath(url, view.registrable);
  if (named !== null) {
    answers.push(
      weakens(`The web address writes the well-known domain ${named}, or its name, into the path of another site.`, {
        kind: 'url_brand_in_path',
      }),
    );
  }
  return answers.length > 0 ? answers : [neutral('The web address is built in an ordinary way.')];
}

export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'url_shape',
    kind: 'url_shape',
    looksAt:
      'how the web address is built: credentials before the host, sub-domain depth, a port of its own, a well-known domain or brand folder in the path',
    declares: [
      {
        kind: 'url_userinfo',
        disposition: 'weakens',
        strength: 'moderate',
        reason:
          'Credentials before the host have almost no honest use in a link and exist to mislead the reader; too rare in the corpora here to measure, so at most moderate.',
      },
      {
        kind: 'url_deep_subdomains',
        disposition: 'weakens',
        strength: 'weak',
        reason: 'Deep sub-domains hide the real domain, though large sites use them too.',
      },
      {
        kind: 'url_port',
        disposition: 'weakens',
        strength: 'weak',
        reason:
          "A port other than the scheme's default points at a service run by hand, often a compromised host; some honest services use one too.",
      },
      {
        kind: 'url_brand_in_path',
        disposition: 'weakens',
        strength: 'weak',
        reason:
          "A brand's domain, or a folder named after it, in another site's path makes the address read as the brand's; directories and link checkers do it honestly too.",
      },
      { disposition: 'neutral', reason: 'An ordinarily built address says nothing either way.' },
    ],
    artifactTypes: ['URL'],
    trustBand: 'medium',
    dataClass: PUBLIC_FACT,
    sources: [...BRAND_SOURCES],
  },
  ({ presentation }) => {
    const url = parseWebAddress(presentation.value);
    if (url === null) return absent('no_data', 'The web address could not be read.');
    return shapeAnswers(url);
  },
);
