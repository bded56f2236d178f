import { describeType } from './artifactTypes.js';
import { siteOf } from './establishedSites.js';
import { OFFLINE, PUBLIC_FACT, absent, defineCheck, neutral, presentedHost, supports, type Answer } from './evidence.js';
import type { HostView } from './hosts.js';
import { POPULARITY_SOURCE, RANK_CEILING, popularityList, rankOf, type PopularityList } from './popularity.js';
import type { CheckDiscoveryConfig } from './registry.js';
import type { CheckDefinition } from './types.js';

/**
 * How widely the web links to the site a domain or web address names, by a
 * ranked popularity list (src/checks/popularity.ts). Each tier of rank is a
 * fact of its own, measured like every other (METHODOLOGY.md section 8):
 * the top 1,000, the top 10,000 and the top 100,000. A rank is a fact about
 * a site and only the site (`judges: 'site'`):
 *
 * - a host below a ranked site (`someone.tumblr.com`, `sites.google.com/...`)
 *   does not share its rank: the site may give such names to anyone;
 * - a site on a shared platform (`someone.github.io`) is its own site, and
 *   the platform's rank is not its rank.
 * Both are a neutral fact of their own, measured too, so it shows whether
 * they tell anything.
 *
 * An email address is not read here: a mailbox at a ranked organisation's
 * domain is its own fact (organisation_mailbox, establishedSiteCheck.ts).
 */

/**
 * The tiers, each a fact of its own. Their strengths are at most what
 * section 8 allows a fact this project's corpora hold too few subjects of
 * (fewer than 30 show each tier: bench/README "Popularity"), and follow the
 * meaning: the most widely linked thousand are sites everyone knows, the
 * long tail up to 100,000 holds far more names few people could vouch for.
 */
export const TIERS = [
  { limit: 1_000, kind: 'site_rank_top_1000', words: 'the 1,000', strength: 'moderate' },
  { limit: 10_000, kind: 'site_rank_top_10000', words: 'the 10,000', strength: 'moderate' },
  { limit: RANK_CEILING, kind: 'site_rank_top_100000', words: 'the 100,000', strength: 'weak' },
] as const;

const NOT_INHERITED = 'site_rank_not_inherited';
const UNRANKED = 'site_unranked';

/** The tier a rank falls in, or null beyond the last. */
export function tierOf(rank: number): (typeof TIERS)[number] | null {
  return TIERS.find((t) => rank <= t.limit) ?? null;
}

/** The ranked name a host sits below without being it: its registrable domain, or the platform its site is on. */
function rankedAbove(list: PopularityList, host: string, view: HostView): string | null {
  const above = view.platform !== null ? view.platform.suffix : view.registrable;
  if (above === null || host === above || host === `www.${above}`) return null;
  return rankOf(list, above) !== undefined ? above : null;
}

export function answerFor(list: PopularityList, host: string, what: string, view: HostView): Answer {
  const site = siteOf(view);
  if (site === null)
    return neutral(
      `The ${what} names no site that a popularity ranking could rank: ${view.isIp ? 'an IP address' : 'no registrable domain'}.`,
      { kind: UNRANKED },
    );
  const ownName = host === site || host === `www.${site}`;
  const rank = ownName ? rankOf(list, site) : undefined;
  const tier = rank === undefined ? null : tierOf(rank);
  if (tier !== null)
    return supports(`The ${what} names ${site}, among ${tier.words} most widely linked sites of a popularity ranking.`, {
      kind: tier.kind,
    });
  const above = rankedAbove(list, host, view);
  if (above !== null)
    return neutral(
      view.platform !== null
        ? `The site ${site} is on the shared platform ${above}: a site on a platform does not share the platform's popularity rank.`
        : `The host ${host} is below ${above}: a name below a ranked site does not share its popularity rank.`,
      { kind: NOT_INHERITED },
    );
  return neutral(
    `The site ${site} is not among the ${RANK_CEILING.toLocaleString('en')} most widely linked sites of the popularity ranking it was compared with.`,
    {
      kind: UNRANKED,
    },
  );
}

export function popularityCheck(list: PopularityList): CheckDefinition {
  return defineCheck(
    {
      ...OFFLINE,
      id: 'site_popularity',
      judges: 'site',
      kind: 'site_rank_top_1000',
      looksAt: 'the rank of the site a domain or web address names in a ranked popularity list (tiers: top 1,000, 10,000, 100,000)',
      declares: [
        ...TIERS.map((t) => ({
          kind: t.kind,
          disposition: 'supports' as const,
          strength: t.strength,
          reason: `A site among ${t.words} most widely linked on the web has been in wide use for years; too few subjects of the corpora show it to measure, so it is at most moderate (METHODOLOGY.md section 8), and ${t.strength} by its meaning.`,
        })),
        {
          kind: NOT_INHERITED,
          disposition: 'neutral' as const,
          reason: 'A host below a ranked site, or a site on a ranked platform, may be anyone’s: it is reported, never counted.',
        },
        {
          kind: UNRANKED,
          disposition: 'neutral' as const,
          reason: 'Most real sites are not among the most widely linked: absence from the ranking says nothing either way.',
        },
      ],
      artifactTypes: ['DOMAIN', 'URL'],
      trustBand: 'medium',
      dataClass: PUBLIC_FACT,
      sources: [POPULARITY_SOURCE],
      snapshot: list.snapshot,
    },
    ({ presentation }) => {
      const named = presentedHost(presentation);
      const what = describeType(presentation.type);
      return named === null
        ? absent('no_data', `The popularity ranking could not be read for the ${what}: it has no host.`)
        : answerFor(list, named.host, what, named.view);
    },
  );
}

export async function createChecks(config: CheckDiscoveryConfig): Promise<CheckDefinition[]> {
  return [popularityCheck(await popularityList(config.popularityFile))];
}
