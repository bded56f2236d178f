import { isIP } from 'node:net';
import { validate as validateBitcoinAddress } from 'bitcoin-address-validation';
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import { domainHost, parseWebAddress, viewHost } from './hosts.js';
import { asCountryCode, parsePhone, placesToRead } from './phoneParsing.js';
import { formProblem, rememberForm } from './valueForm.js';
import type { NormalisedPresentation } from './types.js';

/**
 * Canonical forms used to match a presentation to the tenant's entities.
 *
 * Returns null when the value has no canonical form for its type (empty, a
 * phone number with no digits to parse, an IP that is not an IP...). The
 * caller decides what a null means; the checks themselves re-read the value as
 * presented and report an unparseable one as evidence or an absence.
 *
 * EMAIL is only trimmed and lower-cased, never validated, so that a malformed
 * address still reaches the syntax check and counts against the subject.
 */
export interface NormaliseOptions {
  /** Region for phone numbers written without an international prefix (ISO 3166 alpha-2). */
  defaultCountry?: string;
}

type Normaliser = (value: string, options: NormaliseOptions) => string | null;

const NORMALISERS: Record<string, Normaliser> = {
  EMAIL: (value) => value.trim().toLowerCase() || null,
  PHONE: normalisePhone,
  DOMAIN: normaliseDomain,
  URL: normaliseUrl,
  IP: normaliseIp,
  NAME: (value) => value.normalize('NFC').replace(/\s+/gu, ' ').trim() || null,
  ACCOUNT: (value) => value.trim() || null,
  IBAN: normaliseIban,
  CRYPTO_ADDRESS: normaliseCryptoAddress,
};

/** The compact upper-case form, when its country's length and the mod-97 check digits hold (ibantools). */
function normaliseIban(value: string): string | null {
  const compact = electronicFormatIBAN(value.trim());
  return compact && isValidIBAN(compact) ? compact : null;
}

/**
 * A Bitcoin address whose checksum holds (base58check or bech32, via
 * bitcoin-address-validation; bech32 lower-cased) or an Ethereum address
 * (0x and 40 hex digits, lower-cased: its mixed-case checksum needs Keccak,
 * which only tells a typo, not a different account).
 */
function normaliseCryptoAddress(value: string): string | null {
  const v = value.trim();
  if (/^0x[0-9a-fA-F]{40}$/.test(v)) return v.toLowerCase();
  if (!validateBitcoinAddress(v)) return null;
  return /^bc1/i.test(v) ? v.toLowerCase() : v;
}

export function normalisePresentation(type: string, value: string, options: NormaliseOptions = {}): NormalisedPresentation | null {
  // Types registered by a tenant beyond the built-in ones keep their value, trimmed.
  const normaliser = NORMALISERS[type] ?? ((raw: string) => raw.trim() || null);
  const normalised = normaliser(value, options);
  return normalised === null ? null : { type, value, normalised };
}

/** E.164, read as the phone checks read it (src/checks/phoneParsing.ts) in the given country. */
function normalisePhone(value: string, options: NormaliseOptions): string | null {
  return parsePhone(value.trim(), placesToRead(options.defaultCountry, undefined))?.number.number ?? null;
}

/** Lower-case punycode registrable domain (`WWW.Example.CO.UK.` becomes `example.co.uk`). */
function normaliseDomain(value: string): string | null {
  const host = domainHost(value);
  if (host === null || isIP(host) !== 0) return null;
  return viewHost(host).registrable;
}

/** WHATWG serialisation (lower-case punycode host, default port dropped) without the fragment, which never reaches a server. */
function normaliseUrl(value: string): string | null {
  const url = parseWebAddress(value);
  if (url === null) return null;
  url.hash = '';
  // Every trailing dot goes (`a..` as well as `a.`), so normalising twice changes nothing.
  if (url.hostname.endsWith('.')) {
    const bare = url.hostname.replace(/\.+$/, '');
    if (bare === '') return null;
    url.hostname = bare;
  }
  return url.href;
}

/** Dotted-quad IPv4 or RFC 5952 compressed lower-case IPv6, via the URL parser's serialiser. */
function normaliseIp(value: string): string | null {
  const candidate = value.trim().replace(/^\[(.*)\]$/, '$1');
  const family = isIP(candidate);
  if (family === 4) return candidate;
  if (family !== 6 || candidate.includes('%')) return null;
  return new URL(`http://[${candidate}]/`).hostname.slice(1, -1);
}

// The phone checks read the claimed country the same way; it lives beside them (no import cycle with the form rule).
export { asCountryCode };

/**
 * A subject's presentations, normalised; a value with no canonical form (an
 * unparseable phone, say) keeps its trimmed self, so the checks still see and
 * judge it. Every caller that resolves or checks presentations uses this.
 *
 * The same value presented twice (an email in another case, a phone in two
 * formats) is one presentation, the first as written: checking it twice
 * would count the same evidence twice.
 *
 * A value that is not a value of its type is marked (`malformed`, with why:
 * src/checks/valueForm.ts), read in the claimed country as the phone checks
 * read it, so the plan runs only the checks that have something to read.
 */
export function normalisePresented(
  presented: readonly { type: string; value: string }[],
  country: string | undefined,
): NormalisedPresentation[] {
  const distinct = new Map<string, NormalisedPresentation>();
  for (const p of presented) {
    const canonical = normalisePresentation(p.type, p.value, country ? { defaultCountry: country } : {});
    const normalised = canonical ?? { type: p.type, value: p.value, normalised: p.value.trim() };
    const key = `${normalised.type}\u0000${normalised.normalised}`;
    if (distinct.has(key)) continue;
    // A phone that normalised was read in the same country, so it is a number: no second parse.
    const malformed = p.type === 'PHONE' && canonical !== null ? null : formProblem(p.type, p.value, country);
    const presentation = malformed === null ? normalised : { ...normalised, malformed };
    rememberForm(presentation, malformed);
    distinct.set(key, presentation);
  }
  return [...distinct.values()];
}
