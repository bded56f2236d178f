import { parse as parseDomain } from 'tldts';
import type { HostView } from './hosts.js';

/**
 * Level-squatting: a host that spells a complete domain name before its own
 * (`wallet.com.verify-now.xyz`, `wallet.io-updated.app`), so a reader who
 * stops at the first suffix they recognise believes they are on `wallet.com`.
 * Du et al., "TL;DR Hazard: A Comprehensive Study of Levelsquatting Scams"
 * (SecureComm 2019), found this shape used against brands of every size,
 * which is why it is judged by its form, whatever name it spells; the
 * look-alike check says more when the spelt name is a well-known one.
 *
 * Only the open generic suffixes of RFC 1591 (com, net, org) and two-label
 * country suffixes (`co.uk`) count inside the sub-domain: many newer
 * suffixes are ordinary words (`support`, `shop`) that honest sub-domains
 * use, and public bodies name their own zones after the restricted ones
 * (`stud.edu.zh.ch`, `alu.edu.gva.es`, `ksz.edu-zg.ch`, a canton's and a
 * region's schools). The hyphenated form (`com-updated`) counts only those
 * generic suffixes too: country codes start honest labels (`us-east-1`,
 * `de-de`, `uk-visas`).
 */
const ORIGINAL_GENERIC: ReadonlySet<string> = new Set(['com', 'net', 'org']);
const SUFFIX_THEN_HYPHEN = /^([a-z]{3})-./;

const isTwoLabelSuffix = (text: string) => text.includes('.') && parseDomain(`x.${text}`).publicSuffix === text;

/** The domain name spelt inside the host before its own registrable domain (`wallet.com`), or null. */
export function spelledDomainIn(view: HostView): string | null {
  if (view.registrable === null || view.subdomain === '') return null;
  const labels = [...view.subdomain.split('.'), ...view.registrable.split('.')];
  const ownLabel = view.subdomain.split('.').length;
  for (let j = 1; j <= ownLabel; j += 1) {
    const name = labels[j - 1]!;
    if (j < ownLabel && ORIGINAL_GENERIC.has(labels[j]!)) return `${name}.${labels[j]}`;
    if (j + 1 < ownLabel && isTwoLabelSuffix(`${labels[j]}.${labels[j + 1]}`)) return `${name}.${labels[j]}.${labels[j + 1]}`;
    const hyphenated = SUFFIX_THEN_HYPHEN.exec(labels[j]!)?.[1];
    if (hyphenated !== undefined && ORIGINAL_GENERIC.has(hyphenated)) return `${name}.${hyphenated}`;
  }
  return null;
}
