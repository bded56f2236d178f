import { OFFLINE, PERSONAL_FACT, absent, defineCheck, neutral, weakens } from './evidence.js';
import { normalisePresentation } from './normalise.js';
import { classifyIp, type IpRange } from './ipRanges.js';

/**
 * Whether the address could be a host on the public internet. An address in
 * a private, loopback, link-local, shared (carrier NAT), documentation,
 * multicast, reserved or unallocated range cannot be where a remote subject
 * really is, so it weakens. An unreadable value usually comes from the
 * tenant's own logging rather than the subject, so it is an absence, not
 * evidence against the subject.
 */
const RANGE_WORDING: Record<IpRange, string> = {
  unspecified: 'is the unspecified address, which names no host',
  loopback: 'is a loopback address, which always means the local machine',
  private: 'is in a private-use range, not reachable from the internet',
  cgnat: 'is in the range shared inside carrier networks, never seen on the public internet',
  link_local: 'is a link-local address, valid only on one network segment',
  documentation: 'is in a range reserved for documentation and examples',
  multicast: 'is a multicast group address, not a single host',
  reserved: 'is in a reserved special-purpose range',
  bogon: 'is in a range not allocated for use on the public internet',
};

export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'ip_range',
    kind: 'ip_range',
    looksAt: 'whether the IP address is public or in a reserved range',
    declares: [
      {
        disposition: 'weakens',
        strength: 'moderate',
        reason: "A private or reserved address cannot be a real client's public address: a real indicator of a forged or misread value.",
      },
      { disposition: 'neutral', reason: 'A public address is ordinary.' },
    ],
    artifactTypes: ['IP'],
    trustBand: 'high',
    dataClass: PERSONAL_FACT,
  },
  ({ presentation }) => {
    const canonical = normalisePresentation('IP', presentation.value)?.normalised;
    const range = canonical === undefined ? null : classifyIp(canonical);
    if (range === null) return absent('no_data', 'The value cannot be read as an IP address.');
    return range === 'public'
      ? neutral('The IP address is a public internet address.')
      : weakens(`The IP address ${RANGE_WORDING[range]}.`);
  },
);
