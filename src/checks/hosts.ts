import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { parse as parseDomain } from 'tldts';
import type { NormalisedPresentation } from './types.js';

/**
 * Host names out of presentations, in one place so every domain check reads
 * the same host for the same presentation: the part after the last `@` of an
 * email, the host of a web address, a presented domain as given.
 */

export interface EmailParts {
  local: string;
  domain: string;
}

/** Splits at the last `@` (quoted local parts may contain `@`); null when either side is empty. */
export function emailParts(value: string): EmailParts | null {
  const at = value.lastIndexOf('@');
  if (at <= 0 || at === value.length - 1) return null;
  return { local: value.slice(0, at), domain: value.slice(at + 1) };
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Parses a presented web address. People present `example.com/path` without a
 * scheme, so one is assumed; anything but http(s) is not a web address here.
 */
export function parseWebAddress(value: string): URL | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  const withScheme = SCHEME.test(trimmed) && !/^[^/]+:\d+/.test(trimmed) ? trimmed : `https://${trimmed}`;
  try {
    const url = new URL(withScheme);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.hostname === '') return null;
    return url;
  } catch {
    return null;
  }
}

/**
 * Lower-case ASCII (punycode) form of a host; IP literals lose their brackets.
 * Returns null for anything that is not a plausible host name or IP.
 */
export function asciiHost(host: string): string | null {
  let candidate = host.trim().toLowerCase();
  if (candidate.startsWith('[') && candidate.endsWith(']')) candidate = candidate.slice(1, -1);
  if (candidate.endsWith('.')) candidate = candidate.slice(0, -1);
  if (candidate === '') return null;
  if (isIP(candidate) !== 0) return candidate;
  const ascii = domainToASCII(candidate);
  return ascii === '' || !fitsDns(ascii) ? null : ascii;
}

// RFC 1035: 63 octets a label, 253 a name. Longer cannot exist, and the checks' work grows with length.
function fitsDns(ascii: string): boolean {
  return ascii.length <= 253 && ascii.split('.').every((label) => label.length <= 63);
}

/**
 * The host of a presented domain. People paste whole addresses into domain
 * fields (`https://example.com/`) and wildcard certificates' names (`*.example.com`);
 * both still name a domain.
 */
export function domainHost(value: string): string | null {
  const trimmed = value.trim().replace(/^\*\./, '');
  if (/[/:@]/.test(trimmed) && !trimmed.startsWith('[') && isIP(trimmed) === 0) {
    const url = parseWebAddress(trimmed);
    return url ? asciiHost(url.hostname) : null;
  }
  return asciiHost(trimmed);
}

/** The host a presentation names, or null when it names none or cannot be parsed. */
export function hostOf(presentation: Pick<NormalisedPresentation, 'type' | 'value'>): string | null {
  switch (presentation.type) {
    case 'EMAIL': {
      const parts = emailParts(presentation.value.trim());
      return parts ? asciiHost(parts.domain) : null;
    }
    case 'URL': {
      const url = parseWebAddress(presentation.value);
      return url ? asciiHost(url.hostname) : null;
    }
    case 'DOMAIN':
      return domainHost(presentation.value);
    default:
      return null;
  }
}

export interface HostView {
  hostname: string;
  isIp: boolean;
  /** Registrable domain under a public suffix (`example.co.uk`), null when there is none. */
  registrable: string | null;
  /** The registrable domain without its suffix (`example`). */
  label: string | null;
  suffix: string | null;
  /** Whether the suffix is in the ICANN section of the public suffix list. */
  isIcann: boolean;
  /** Labels left of the registrable domain (`www.mail`), empty when none. */
  subdomain: string;
  /**
   * When the host sits under a shared hosting or platform suffix from the
   * private section of the public suffix list (`web.app`, `github.io`...):
   * that suffix and the site's own name on it (`paypal-login`). Anyone can
   * get such a name in a minute, without registering a domain.
   */
  platform: { suffix: string; site: string; label: string } | null;
}

export function viewHost(hostname: string): HostView {
  if (isIP(hostname) !== 0) {
    return { hostname, isIp: true, registrable: null, label: null, suffix: null, isIcann: false, subdomain: '', platform: null };
  }
  const parsed = parseDomain(hostname, { allowPrivateDomains: false });
  return {
    hostname,
    isIp: false,
    registrable: parsed.domain,
    label: parsed.domainWithoutSuffix,
    suffix: parsed.publicSuffix,
    isIcann: parsed.isIcann === true,
    subdomain: parsed.subdomain ?? '',
    platform: platformOf(hostname, parsed.publicSuffix),
  };
}

function platformOf(hostname: string, icannSuffix: string | null): HostView['platform'] {
  const withPrivate = parseDomain(hostname, { allowPrivateDomains: true });
  const suffix = withPrivate.publicSuffix;
  if (withPrivate.isPrivate !== true || suffix === null || suffix === icannSuffix) return null;
  if (withPrivate.domain === null || withPrivate.domainWithoutSuffix === null) return null;
  return { suffix, site: withPrivate.domain, label: withPrivate.domainWithoutSuffix };
}
