import { describeType } from './artifactTypes.js';
import { OFFLINE, PUBLIC_FACT, defineCheck, neutral, weakens } from './evidence.js';
import { hostOf, viewHost } from './hosts.js';
import { THROWAWAY_SUFFIX_SOURCE, throwawayRatio } from './throwawaySuffixes.js';
import { isDisposableDomain } from './emailDomains.js';

/**
 * Whether the host sits under a registrable domain of a recognised public
 * suffix (the ICANN section of the public suffix list). A name under an
 * unknown suffix, or a bare suffix, cannot be a real site or mailbox on the
 * public internet, so it weakens. A value with no host that can be read is
 * not a value of its type: the form check's one fact
 * (src/checks/valueFormCheck.ts), so nothing here. A recognised suffix under which
 * throw-away domains are concentrated (src/checks/throwawaySuffixes.ts) is a
 * weak sign of its own: a fact about the suffix, not about the domain's
 * presence on any list. The rates come from the disposable data, so for an
 * address whose own domain is listed there the sign is not counted again.
 */
export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'public_suffix',
    judges: 'site',
    kind: 'public_suffix',
    looksAt: 'the host against the public suffix list, and whether throw-away domains crowd under its suffix',
    sources: [THROWAWAY_SUFFIX_SOURCE],
    declares: [
      {
        disposition: 'weakens',
        strength: 'moderate',
        reason: 'A host under no recognised public suffix is unusual for a genuine service.',
      },
      {
        kind: 'throwaway_suffix',
        disposition: 'weakens',
        strength: 'moderate',
        reason:
          'Throw-away and phishing domains crowd under a few cheap or free suffixes: measured a few times more often on bad subjects, though honest sites use them too.',
      },
      { disposition: 'neutral', reason: 'Being under a registrable domain is what every ordinary host shows.' },
    ],
    artifactTypes: ['EMAIL', 'DOMAIN', 'URL'],
    trustBand: 'medium',
    dataClass: PUBLIC_FACT,
  },
  ({ presentation }) => {
    const host = hostOf(presentation);
    const what = describeType(presentation.type);
    if (host === null) return [];
    const view = viewHost(host);
    if (view.isIp) return neutral(`The ${what} names an IP address, to which no public suffix applies.`);
    if (view.registrable === null) return weakens(`The host ${host} is not under any registrable domain.`);
    if (!view.isIcann) return weakens(`The host ${host} ends in .${view.suffix ?? ''}, which is not a recognised public suffix.`);
    const ratio = view.suffix === null ? null : throwawayRatio(view.suffix);
    // The suffix rates are counted over the disposable data itself: for an address whose domain is on
    // it, the suffix says nothing the disposable check has not said, and counting both counts one list twice.
    if (ratio !== null && presentation.type === 'EMAIL' && isDisposableDomain(host, view.registrable)) {
      return neutral(`The host is under .${view.suffix}, where throw-away domains crowd; the domain itself is judged by its listing.`);
    }
    if (ratio !== null) {
      return weakens(
        `The host is under .${view.suffix}, a suffix ${Math.round(ratio)} times more common among throw-away domains than among established ones.`,
        { kind: 'throwaway_suffix' },
      );
    }
    return neutral(`The host is under the registrable domain ${view.registrable} (public suffix .${view.suffix ?? ''}).`);
  },
);
