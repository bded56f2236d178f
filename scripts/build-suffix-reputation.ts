import { writeFileSync } from 'node:fs';
import { viewHost } from '../src/checks/hosts.js';
import { DISPOSABLE_EMAIL_DOMAINS, DISPOSABLE_SOURCES, FREE_MAIL_DOMAINS, FREE_MAIL_SOURCE } from '../src/checks/emailDomains.js';
import { BRAND_DOMAINS, BRAND_SOURCES } from '../src/checks/brandDomains.js';

/**
 * Builds src/checks/data/throwawaySuffixes.json: the public suffixes under
 * which throw-away domains are concentrated. It compares, per ICANN suffix,
 * its share of the disposable inbox domains the service already ships
 * (mailchecker and disposable-domains) with its share of the established
 * domains it ships (the brand domains and the mailbox providers). A suffix is
 * listed when it is at least RATIO times more common among the throw-away
 * domains, counted with add-one smoothing so that a suffix no established
 * domain uses is not infinitely suspect, and carries at least MIN_THROWAWAY
 * of them, so a handful of entries never marks a country. The rule is fixed
 * here and never fitted to the quality bench's corpus. Run
 * `npm run data:suffixes` after upgrading any of those data packages.
 */
const RATIO = 10;
const MIN_THROWAWAY = 100;

function suffixCounts(domains: Iterable<string>): { bySuffix: Map<string, number>; total: number } {
  const bySuffix = new Map<string, number>();
  let total = 0;
  for (const domain of domains) {
    const view = viewHost(domain);
    if (!view.isIcann || view.suffix === null) continue;
    bySuffix.set(view.suffix, (bySuffix.get(view.suffix) ?? 0) + 1);
    total += 1;
  }
  return { bySuffix, total };
}

const throwaway = suffixCounts(DISPOSABLE_EMAIL_DOMAINS);
const established = suffixCounts(new Set([...BRAND_DOMAINS, ...FREE_MAIL_DOMAINS]));

const suffixes = [...throwaway.bySuffix.entries()]
  .map(([suffix, count]) => {
    const known = established.bySuffix.get(suffix) ?? 0;
    const ratio = (count + 1) / (throwaway.total + 1) / ((known + 1) / (established.total + 1));
    return { suffix, throwaway: count, established: known, ratio: Math.round(ratio * 10) / 10 };
  })
  .filter((s) => s.throwaway >= MIN_THROWAWAY && s.ratio >= RATIO)
  .sort((a, b) => b.ratio - a.ratio || (a.suffix < b.suffix ? -1 : 1));

const out = {
  rule: `ICANN suffixes at least ${RATIO} times more common (add-one smoothed share) among the ${throwaway.total} throw-away domains than among the ${established.total} established ones, with at least ${MIN_THROWAWAY} throw-away domains`,
  packages: [...DISPOSABLE_SOURCES, FREE_MAIL_SOURCE, ...BRAND_SOURCES],
  generated_by: 'scripts/build-suffix-reputation.ts',
  generated_at: new Date().toISOString().slice(0, 10),
  suffixes,
};
writeFileSync(new URL('../src/checks/data/throwawaySuffixes.json', import.meta.url), `${JSON.stringify(out, null, 1)}\n`);
console.log(`wrote ${suffixes.length} throw-away suffixes: ${suffixes.map((s) => s.suffix).join(' ')}`);
