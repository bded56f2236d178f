import { isDisposableDomain } from './emailDomains.js';
import { ESTABLISHED_SITE_SOURCES, isEstablishedSite, isFreeMailHost, siteOf } from './establishedSites.js';
import { describeType } from './artifactTypes.js';
import { OFFLINE, PUBLIC_FACT, absent, defineCheck, neutral, presentedHost, supports, type Answer } from './evidence.js';
import type { HostView } from './hosts.js';
import { POPULARITY_SOURCE, popularityList, rankOf, type PopularityList } from './popularity.js';
import type { CheckDiscoveryConfig } from './registry.js';
import type { CheckDefinition, NormalisedPresentation } from './types.js';

/**
 * Two facts about the standing of the site a presentation names
 * (`judges: 'site'`: one fact about a site, counted once however many
 * presentations name it):
 *
 * - `established_site`: a domain or web address is the own name (the site
 *   itself or its `www`) of a site the maintained well-known-site data names
 *   (src/checks/establishedSites.ts). Below it, a well-known site may lend
 *   names to other people's pages (`someone.tumblr.com`), and a site on a
 *   shared platform is its own site, never the platform. A site the
 *   popularity ranking ranks is left to site_popularity's tiers: one fact
 *   about a site's standing, not two that say the same.
 * - `organisation_mailbox`: an email address at an organisation's own
 *   domain that the well-known-site data names or the popularity ranking
 *   ranks. The organisation gives its mailboxes to its own people, which a
 *   site alone does not say; measured on its own. A mailbox at a consumer
 *   provider (gmail.com), a throw-away service or a site on a shared
 *   platform is anyone's: neutral (free_mail's and disposable_email's facts
 *   say the rest). When the subject also presents the site itself, the
 *   site's own fact stands for both, so the mailbox is not counted twice.
 */
const MAILBOX = 'organisation_mailbox';
const SITE = 'established_site';

function isStanding(list: PopularityList, site: string): boolean {
  return isEstablishedSite(site) || rankOf(list, site) !== undefined;
}

function answerFor(
  list: PopularityList,
  ctx: { subject: readonly NormalisedPresentation[] },
  type: string,
  host: string,
  view: HostView,
): Answer {
  const what = describeType(type);
  const site = siteOf(view);
  if (type === 'EMAIL') return mailboxAnswer(list, ctx.subject, host, site, view);
  if (site === null) return neutral(`The ${what} names no site: ${view.isIp ? 'an IP address' : 'no registrable domain'}.`);
  if (rankOf(list, site) !== undefined)
    return neutral(`The site ${site} is ranked by popularity; its rank, not a second fact, speaks for its standing.`);
  if (!isEstablishedSite(site)) return neutral(`The site ${site} is not among the established, widely used sites it was compared with.`);
  const ownName = host === site || host === `www.${site}`;
  return ownName
    ? supports(`The ${what} names ${site}, an established, widely used site.`)
    : neutral(`The host ${host} is below the established site ${site}, which may give such names to other people's pages.`);
}

/** Whether another presentation of the subject, a domain or web address, names the same site. */
function siteAlsoPresented(subject: readonly NormalisedPresentation[], site: string): boolean {
  return subject.some((p) => {
    if (p.type !== 'DOMAIN' && p.type !== 'URL') return false;
    // The inquiry's one parse of each presentation's host, shared by every check (evidence.ts).
    const named = presentedHost(p);
    return named !== null && siteOf(named.view) === site;
  });
}

function mailboxAnswer(
  list: PopularityList,
  subject: readonly NormalisedPresentation[],
  host: string,
  site: string | null,
  view: HostView,
): Answer {
  const kind = { kind: MAILBOX };
  if (site === null)
    return neutral(`The email address is at no organisation's domain: ${view.isIp ? 'an IP address' : 'no registrable domain'}.`, kind);
  if (isDisposableDomain(host, view.registrable))
    return neutral("The email address is at a throw-away inbox service, not at an organisation's own domain.", kind);
  if (isFreeMailHost(host, view.registrable))
    return neutral(
      `The email address is at ${site}, a consumer mailbox provider: a mailbox there can be anyone's, not an organisation's own.`,
      kind,
    );
  if (view.platform !== null)
    return neutral(`The email address is at ${site}, a site on a shared platform, not an organisation's own domain.`, kind);
  if (!isStanding(list, site))
    return neutral(`The email domain ${site} is not among the established or widely linked sites it was compared with.`, kind);
  if (siteAlsoPresented(subject, site))
    return neutral(
      `The email address is at ${site}, which the subject also presents: the site's own standing is counted once, for both.`,
      kind,
    );
  return supports(`The email address is at ${site}, an established organisation's own domain, not a free or throw-away mailbox.`, kind);
}

export function establishedSiteCheck(list: PopularityList): CheckDefinition {
  return defineCheck(
    {
      ...OFFLINE,
      id: 'established_site',
      judges: 'site',
      kind: SITE,
      looksAt:
        "the site a host belongs to against maintained data of well-known, widely used sites, and for a mailbox whether it is at such an organisation's own domain (or one a popularity ranking ranks)",
      declares: [
        {
          disposition: 'supports',
          strength: 'moderate',
          reason:
            'A site that maintained well-known-site data names is real and in wide use; the strength is the one its measured likelihood ratio supports.',
        },
        {
          disposition: 'neutral',
          reason: 'Not being among the well-known sites says nothing either way; a ranked site is read by its rank instead.',
        },
        {
          kind: MAILBOX,
          disposition: 'supports',
          strength: 'moderate',
          reason:
            "A mailbox at an organisation's own established or widely linked domain is given by the organisation; measured on its own, apart from the site.",
        },
        {
          kind: MAILBOX,
          disposition: 'neutral',
          reason: 'A mailbox at a free, throw-away or platform domain, or at a domain no data names, says nothing of an organisation.',
        },
      ],
      artifactTypes: ['EMAIL', 'DOMAIN', 'URL'],
      trustBand: 'medium',
      dataClass: PUBLIC_FACT,
      sources: [...ESTABLISHED_SITE_SOURCES, POPULARITY_SOURCE],
      snapshot: list.snapshot,
    },
    (ctx) => {
      // The host as every check of the inquiry reads it, parsed once (the same parse that stamps the fact).
      const named = presentedHost(ctx.presentation);
      return named === null
        ? absent('no_data', `The site's standing could not be looked up: the ${describeType(ctx.presentation.type)} has no host.`)
        : answerFor(list, ctx, ctx.presentation.type, named.host, named.view);
    },
  );
}

export async function createChecks(config: CheckDiscoveryConfig): Promise<CheckDefinition[]> {
  return [establishedSiteCheck(await popularityList(config.popularityFile))];
}
