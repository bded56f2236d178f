import { OFFLINE, PERSONAL_FACT, absent, defineCheck, neutral, weakens, type SignalAnswer } from './evidence.js';
import { NETWORK_SOURCES, loadNetworks, networkOf, networksReady, type IpNetwork } from './ipNetworks.js';
import { normalisePresentation } from './normalise.js';
import { countryWording, readPhone } from './phoneParsing.js';
import { HOSTING_ASNS, HOSTING_SOURCE } from './hostingAsns.js';
import { hostOf, viewHost } from './hosts.js';
import type { CheckContext } from './types.js';

/**
 * Who announces the IP address, and where it is registered, offline:
 * - a hosting, cloud, data-centre or VPN network is where servers, proxies
 *   and VPN exits live, not people at home or on a phone: it weakens
 *   (moderate). A network counts as hosting when its AS number is on the
 *   maintained list generated from X4BNet/lists_vpn (about 900 networks,
 *   src/checks/data/hostingAsns.json, `npm run data:hosting`), or, for the
 *   long tail, when its organisation's registered name says so (hosting,
 *   cloud, server, data centre, VPS, colocation, dedicated);
 * - an address registered in another country than the one the subject
 *   claims, than its phone number's, or than the country of its email or web
 *   domain's national suffix, weakens a little (travel and VPNs are common).
 *   Only a national second-level suffix counts as a domain's country
 *   (`co.uk`, `com.br`, `ne.jp`): many bare country codes are sold to anyone
 *   as generic names (`.io`, `.co`, `.me`), so a bare `.de` is not read as
 *   Germany either, rather than keep a hand-made list of which are which.
 * The data loads in the background after start-up (src/checks/ipNetworks.ts).
 */
const HOSTING_WORDS = /\b(?:hosting|host|hosted|cloud|servers?|data ?cent(?:er|re)s?|datacenters?|vps|colo(?:cation)?|dedicated)\b/i;

// Reading starts with the first module load, in the background: no call waits for it.
void loadNetworks().catch(() => undefined);

function countriesClaimed(ctx: Pick<CheckContext, 'claim' | 'subject'>): { country: string; from: string }[] {
  const out: { country: string; from: string }[] = [];
  const claimed = ctx.claim?.country?.trim().toUpperCase();
  if (claimed) out.push({ country: claimed, from: 'the country the subject claims' });
  for (const p of ctx.subject.filter((s) => s.type === 'PHONE')) {
    const reading = readPhone({ presentation: p, ...(ctx.claim ? { claim: ctx.claim } : {}) });
    const country = reading.status === 'parsed' ? reading.number.country : undefined;
    if (country) out.push({ country, from: "the phone number's country" });
  }
  for (const p of ctx.subject.filter((s) => s.type === 'EMAIL' || s.type === 'DOMAIN' || s.type === 'URL')) {
    const country = nationalSuffixCountry(p);
    if (country) out.push({ country, from: "the country of its domain's national suffix" });
  }
  return out;
}

/** `GB` for a host under `co.uk`: the country of an ICANN suffix of two or more labels ending in a country code; else null. */
function nationalSuffixCountry(p: { type: string; value: string }): string | null {
  const host = hostOf(p);
  if (host === null) return null;
  const view = viewHost(host);
  if (view.isIp || !view.isIcann || view.suffix === null) return null;
  const labels = view.suffix.split('.');
  const code = labels[labels.length - 1]!;
  if (labels.length < 2 || !/^[a-z]{2}$/.test(code)) return null;
  // The suffix list writes the United Kingdom's code as `uk`; ISO 3166 as `GB`.
  return code === 'uk' ? 'GB' : code.toUpperCase();
}

function answersFor(network: IpNetwork, ctx: Pick<CheckContext, 'claim' | 'subject'>): SignalAnswer[] {
  const answers: SignalAnswer[] = [];
  const where = network.country ? ` registered in ${countryWording(network.country)}` : '';
  const hosting =
    (network.asn !== null && HOSTING_ASNS.has(network.asn)) || (network.organisation !== null && HOSTING_WORDS.test(network.organisation));
  if (hosting) {
    answers.push(
      weakens(`The IP address belongs to a hosting or data-centre network${where}, not an access network people connect from.`, {
        kind: 'ip_hosting',
      }),
    );
  } else {
    answers.push(
      neutral(
        network.asn === null
          ? `The IP address has no announcing network on record${where}.`
          : `The IP address belongs to an access network${where}.`,
      ),
    );
  }
  const mismatch = network.country === null ? undefined : countriesClaimed(ctx).find((c) => c.country !== network.country);
  if (mismatch && network.country) {
    answers.push(
      weakens(
        `The IP address is registered in ${countryWording(network.country)}, not in ${mismatch.from} (${countryWording(mismatch.country)}).`,
        { kind: 'ip_country_mismatch' },
      ),
    );
  }
  return answers;
}

export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'ip_network',
    kind: 'ip_network',
    looksAt:
      "the network announcing the IP address (hosting or access) and the country it is registered in, against the claimed and phone countries and the country of the email or web domain's national suffix",
    declares: [
      {
        kind: 'ip_hosting',
        disposition: 'weakens',
        strength: 'moderate',
        reason: 'People connect from access networks; a data-centre address is a server, proxy or VPN exit, though some are honest.',
      },
      {
        kind: 'ip_country_mismatch',
        disposition: 'weakens',
        strength: 'weak',
        reason: 'An address in another country than the claimed one is common with travel and VPNs: a small sign.',
      },
      { disposition: 'neutral', reason: 'An access network is where people ordinarily are.' },
    ],
    artifactTypes: ['IP'],
    trustBand: 'medium',
    dataClass: PERSONAL_FACT,
    sources: [...NETWORK_SOURCES, HOSTING_SOURCE],
  },
  (ctx) => {
    const ip = normalisePresentation('IP', ctx.presentation.value)?.normalised;
    if (ip === undefined) return absent('no_data', 'The value is not an IP address whose network could be looked up.');
    if (!networksReady()) return absent('no_data', 'The network data is still loading after start-up.');
    const network = networkOf(ip);
    return network === null ? absent('no_data', 'The IP address has no network on record.') : answersFor(network, ctx);
  },
);
