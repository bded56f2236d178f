import { isIP } from 'node:net';
import { findPhoneNumbersInText } from 'libphonenumber-js/max';
import { normalisePresentation, asCountryCode } from './normalise.js';
import { viewHost } from './hosts.js';
import type { NormalisedPresentation } from './types.js';
import { ClaimedSpans, emailSpans } from './textScan.js';

/** Identifiers one text line may contribute; a line listing more is a dump, not a conversation. */
export const MAX_IDENTIFIERS_PER_LINE = 16;

/**
 * Identifiers in a line of free text, with where they sit in it: URLs,
 * emails, IP addresses, phone numbers (libphonenumber-js), then bare domain
 * names. Each kind claims its span in that order, so the domain inside an
 * email or a URL, or the digits of an IP address, are not read twice.
 *
 * Offsets are UTF-16 code unit indices into the line (`start` inclusive,
 * `end` exclusive): what `String.prototype.slice` and a browser use.
 */
export interface Extracted {
  presentation: NormalisedPresentation;
  start: number;
  end: number;
}

interface Span {
  type: string;
  start: number;
  end: number;
}

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`]+/giu;
// An IBAN as printed: country, check digits, then groups of four (spaced or not); its checksum decides.
const IBAN_PATTERN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/gu;
// Bitcoin (base58 from 1 or 3, bech32 from bc1) and Ethereum (0x and 40 hex digits) addresses; checksums decide for Bitcoin.
const CRYPTO_PATTERN = /\b(?:bc1[02-9ac-hj-np-z]{11,71}|[13][1-9A-HJ-NP-Za-km-z]{25,34}|0x[0-9a-fA-F]{40})\b/gu;
// Not part of a longer dotted number (`1.2.3.4.5`), but a full stop after it ends a sentence (`from 203.0.113.9.`).
const IPV4_PATTERN = /(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?!\d|\.\d)/gu;
const IPV6_PATTERN = /(?<![\w:])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?![\w:])/gu;
const DOMAIN_PATTERN = /(?<![\w@.-])(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}(?![\w@-])/gu;
// Punctuation that ends a sentence is not part of a URL or an email written at its end.
const TRAILING = /[.,;:!?)\]}'"]+$/u;

function matches(line: string, pattern: RegExp, type: string, accept: (text: string) => boolean): Span[] {
  const spans: Span[] = [];
  for (const m of line.matchAll(pattern)) {
    const text = m[0].replace(TRAILING, '');
    if (text.length > 0 && accept(text)) spans.push({ type, start: m.index, end: m.index + text.length });
  }
  return spans;
}

/** Emails from their `@` outwards (src/checks/textScan.ts): linear on any input. */
function emailCandidates(line: string): Span[] {
  const spans: Span[] = [];
  for (const found of emailSpans(line)) {
    const text = line.slice(found.start, found.end).replace(TRAILING, '');
    if (text.length > 0) spans.push({ type: 'EMAIL', start: found.start, end: found.start + text.length });
  }
  return spans;
}

// A written phone number is a digit, up to 24 digits or separators, a digit (with an optional
// leading + or parenthesis). The parser reads only such windows: on a megabyte of digits it
// would otherwise spend seconds, and the windows bound its work per character.
const PHONE_WINDOW = /[+(]?\d[\d\s()./-]{4,24}\d/g;
// Past this many windows in one line, the rest is not a text a person wrote; items are capped anyway.
const MAX_PHONE_WINDOWS = 500;

function phoneSpans(line: string, defaultCountry: string | undefined): Span[] {
  const region = asCountryCode(defaultCountry);
  const spans: Span[] = [];
  let windows = 0;
  for (const window of line.matchAll(PHONE_WINDOW)) {
    if (++windows > MAX_PHONE_WINDOWS) break;
    for (const found of findPhoneNumbersInText(window[0], region ? { defaultCountry: region } : {})) {
      if (found.number.isValid()) spans.push({ type: 'PHONE', start: window.index + found.startsAt, end: window.index + found.endsAt });
    }
  }
  return spans;
}

function isPublicDomain(text: string): boolean {
  const view = viewHost(text.toLowerCase());
  return view.registrable !== null && view.isIcann;
}

/** Candidates of every kind, in priority order (a span already taken by an earlier kind wins). */
function candidates(line: string, defaultCountry: string | undefined): Span[] {
  return [
    ...matches(line, URL_PATTERN, 'URL', () => true),
    ...emailCandidates(line),
    // Before phones: the digits of an account number must not be read as a phone number.
    ...matches(line, IBAN_PATTERN, 'IBAN', (t) => normalisePresentation('IBAN', t) !== null),
    ...matches(line, CRYPTO_PATTERN, 'CRYPTO_ADDRESS', (t) => normalisePresentation('CRYPTO_ADDRESS', t) !== null),
    ...matches(line, IPV4_PATTERN, 'IP', (t) => isIP(t) === 4),
    ...matches(line, IPV6_PATTERN, 'IP', (t) => t.length >= 3 && isIP(t) === 6),
    ...phoneSpans(line, defaultCountry),
    ...matches(line, DOMAIN_PATTERN, 'DOMAIN', isPublicDomain),
  ];
}

export function extractIdentifiers(line: string, opts: { defaultCountry?: string; allowedTypes?: ReadonlySet<string> } = {}): Extracted[] {
  const taken = new ClaimedSpans(line.length);
  const out: Extracted[] = [];
  for (const span of candidates(line, opts.defaultCountry)) {
    // Taken even when the type is not granted, so the domain inside an ungranted URL is not read instead.
    if (!taken.claim(span.start, span.end)) continue;
    if (opts.allowedTypes && !opts.allowedTypes.has(span.type)) continue;
    const value = line.slice(span.start, span.end);
    const presentation = normalisePresentation(span.type, value, opts.defaultCountry ? { defaultCountry: opts.defaultCountry } : {});
    if (presentation) out.push({ presentation, start: span.start, end: span.end });
  }
  return out.sort((a, b) => a.start - b.start).slice(0, MAX_IDENTIFIERS_PER_LINE);
}
