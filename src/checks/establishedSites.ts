import { BRAND_DOMAINS, BRAND_SOURCES, KNOWN_SITES, OWN_SITES_ELSEWHERE } from './brandDomains.js';
import { COMMON_FREE_MAIL, FREE_MAIL_DOMAINS, FREE_MAIL_SOURCE } from './emailDomains.js';
import { viewHost, type HostView } from './hosts.js';
import type { DataSource } from './types.js';

/**
 * Established, widely used sites: the sites the maintained well-known-site
 * data names (src/checks/brandDomains.ts, built by
 * scripts/build-brand-domains.ts): a popularity list (the Moz top 500 by
 * linking root domains), the brands an icon set accepts by their popularity,
 * the companies whose scripts the web's top sites load and the domains they
 * serve from, the exchanges and wallets their own maintained libraries name,
 * and the large consumer mailbox providers (email-providers' common list).
 * No site is typed in here.
 *
 * A site is a registrable domain, or a site on a shared platform (public
 * suffix list, private section: `someone.github.io`): a site on a platform
 * never inherits the platform's standing, and is established only when the
 * data names that very site (a company's own documentation on a platform).
 * Names reserved for documentation and testing (RFC 2606, RFC 6761:
 * example.com, *.test, *.invalid...) are no one's site, whatever a list says.
 */

const RESERVED_DOMAINS: ReadonlySet<string> = new Set(['example.com', 'example.net', 'example.org']);
const RESERVED_SUFFIXES: readonly string[] = ['example', 'test', 'invalid', 'localhost', 'local'];

const isReserved = (site: string) => RESERVED_DOMAINS.has(site) || RESERVED_SUFFIXES.some((s) => site === s || site.endsWith(`.${s}`));

// Only the sites on platforms among a company's own sites: a host on someone else's domain is not a site.
const OWN_PLATFORM_SITES = [...OWN_SITES_ELSEWHERE].filter((host) => viewHost(host).platform?.site === host);

const ESTABLISHED: ReadonlySet<string> = new Set(
  [...BRAND_DOMAINS, ...KNOWN_SITES, ...COMMON_FREE_MAIL, ...OWN_PLATFORM_SITES].filter((site) => !isReserved(site)),
);

export const ESTABLISHED_SITE_SOURCES: readonly DataSource[] = [...BRAND_SOURCES, FREE_MAIL_SOURCE];

/** The site a host belongs to: its site on a shared platform, else its registrable domain (null for an IP or a bare suffix). */
export function siteOf(view: HostView): string | null {
  if (view.isIp) return null;
  return view.platform?.site ?? view.registrable;
}

/** Whether the site (as siteOf gives it) is an established, widely used one. */
export function isEstablishedSite(site: string): boolean {
  return ESTABLISHED.has(site);
}

/**
 * Whether the host, or its registrable domain, is a consumer mailbox
 * provider's (anyone can open a mailbox there, so the domain says nothing
 * about an organisation the holder belongs to).
 */
export function isFreeMailHost(host: string, registrable: string | null): boolean {
  return FREE_MAIL_DOMAINS.has(host) || (registrable !== null && FREE_MAIL_DOMAINS.has(registrable));
}
