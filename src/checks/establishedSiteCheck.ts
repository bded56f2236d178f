import { isDisposableDomain } from './emailDomains.js';
import { ESTABLISHED_SITE_SOURCES, isEstablishedSite, isFreeMailHost, siteOf } from './establishedSites.js';
import { describeType } from './artifactTypes.js';
import { OFFLINE, PUBLIC_FACT, absent, defineCheck, neutral, presentedHost, supports, type Answer } from './evidence.js';
import type { HostView } from './hosts.js';

/**
 * Whether the presentation names an established, widely used site
 * (src/checks/establishedSites.ts): one fact about the site, counted once
 * however many presentations name it (`judges: 'site'`).
 *
 * - A domain or web address supports when it is the site's own name (the
 *   site itself or its `www`): below it, a well-known site may lend names to
 *   other people's pages (`someone.tumblr.com`), and which sites do so is in
 *   no data read here. A site on a shared platform is its own site, never
 *   the platform.
 * - An email address supports when it is at an organisation's own
 *   established domain. That is the same fact, seen through a mailbox: the
 *   organisation gives its mailboxes to its own people. So `jane@stripe.com`
 *   beside `stripe.com` counts once, not twice. A mailbox at a consumer
 *   provider (gmail.com) or a throw-away service is anyone's, so the
 *   provider's standing says nothing of its holder: neutral here, and those
 *   facts are free_mail's (neutral) and disposable_email's (weakens).
 *
 * It replaces the look-alike check's old `well_known_domain` support, which
 * said the same of the brand domains alone: one fact, one check.
 */
function answerFor(type: string, host: string, what: string, view: HostView): Answer {
  const site = siteOf(view);
  if (site === null) return neutral(`The ${what} names no site: ${view.isIp ? 'an IP address' : 'no registrable domain'}.`);
  if (type === 'EMAIL') return mailboxAnswer(host, site, view);
  if (!isEstablishedSite(site)) return neutral(`The site ${site} is not among the established, widely used sites it was compared with.`);
  const ownName = host === site || host === `www.${site}`;
  return ownName
    ? supports(`The ${what} names ${site}, an established, widely used site.`)
    : neutral(`The host ${host} is below the established site ${site}, which may give such names to other people's pages.`);
}

function mailboxAnswer(host: string, site: string, view: HostView): Answer {
  if (isDisposableDomain(host, view.registrable))
    return neutral("The email address is at a throw-away inbox service, not at an organisation's own domain.");
  if (isFreeMailHost(host, view.registrable))
    return neutral(
      `The email address is at ${site}, a consumer mailbox provider: a mailbox there can be anyone's, not an organisation's own.`,
    );
  return isEstablishedSite(site)
    ? supports(`The email address is at ${site}, an established organisation's own domain, not a free or throw-away mailbox.`)
    : neutral(`The email domain ${site} is not among the established, widely used sites it was compared with.`);
}

export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'established_site',
    judges: 'site',
    kind: 'established_site',
    looksAt:
      "the site a host belongs to against maintained data of well-known, widely used sites (a mailbox: only at an organisation's own domain)",
    declares: [
      {
        disposition: 'supports',
        strength: 'moderate',
        reason:
          "A site that maintained popularity data names is real and in wide use, and a mailbox at an organisation's own such domain is given by it; provisional until measured, since an address at a large organisation can be typed by anyone.",
      },
      {
        disposition: 'neutral',
        reason: 'Not being among the well-known sites, or a mailbox at a free or throw-away provider, says nothing either way.',
      },
    ],
    artifactTypes: ['EMAIL', 'DOMAIN', 'URL'],
    trustBand: 'medium',
    dataClass: PUBLIC_FACT,
    sources: ESTABLISHED_SITE_SOURCES,
  },
  ({ presentation }) => {
    // The host as every check of the inquiry reads it, parsed once (the same parse that stamps the fact).
    const named = presentedHost(presentation);
    const what = describeType(presentation.type);
    return named === null
      ? absent('no_data', `The ${what} has no host that could be checked.`)
      : answerFor(presentation.type, named.host, what, named.view);
  },
);
