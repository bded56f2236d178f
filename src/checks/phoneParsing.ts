import { getCountries, isSupportedCountry, parsePhoneNumberFromString, type CountryCode, type PhoneNumber } from 'libphonenumber-js/max';
import type { CheckContext } from './types.js';

/** The claim's country as a region the phone library knows, or undefined. */
export function asCountryCode(country: string | undefined): CountryCode | undefined {
  const upper = country?.trim().toUpperCase();
  return upper !== undefined && isSupportedCountry(upper) ? upper : undefined;
}

/**
 * Reads the presented phone number the way the phone checks share: numbers
 * written without an international prefix are read in the claimed country,
 * because that is where the subject says they are.
 */
export type PhoneReading =
  | { status: 'parsed'; number: PhoneNumber }
  | { status: 'unreadable' }
  /** National format with no claimed country to read it in: ambiguous, not wrong. */
  | { status: 'needs_country' };

const INTERNATIONAL_PREFIX = /^\s*(?:\+|00)/;

// Five checks read each phone presentation of an inquiry, all handed the same object: it is parsed once.
const readings = new WeakMap<CheckContext['presentation'], { region: string | undefined; reading: PhoneReading }>();

export function readPhone(ctx: Pick<CheckContext, 'presentation' | 'claim'>): PhoneReading {
  const region = asCountryCode(ctx.claim?.country);
  const known = readings.get(ctx.presentation);
  if (known !== undefined && known.region === region) return known.reading;
  const reading = readPhoneValue(ctx.presentation.value, region);
  readings.set(ctx.presentation, { region, reading });
  return reading;
}

/** How a phone value reads in a region (the claimed country), uncached: readPhone caches it per presentation. */
export function readPhoneValue(value: string, region: ReturnType<typeof asCountryCode>): PhoneReading {
  const number = parsePhoneNumberFromString(value, region ? { defaultCountry: region } : {});
  if (number !== undefined) return { status: 'parsed', number };
  const digits = value.replace(/\D/g, '').length;
  return digits >= MIN_NATIONAL_DIGITS && region === undefined && !INTERNATIONAL_PREFIX.test(value) && validSomewhere(value)
    ? { status: 'needs_country' }
    : { status: 'unreadable' };
}

const REGIONS = getCountries();
// Below seven digits only a handful of island plans (Niue, Tokelau, St Helena...) have
// numbers at all; a short string with no country code is far likelier garbage than one
// of those, and calling it ambiguous would let "12345" fare better than an invalid number.
const MIN_NATIONAL_DIGITS = 7;

/**
 * Whether a national-format number is a valid number in at least one
 * numbering plan. Only then is a missing country an ambiguity; "12345",
 * valid nowhere, is garbage whatever country it was meant for, and must not
 * fare better than a number known to be invalid. Runs only on this rare
 * path (no prefix, no claimed country): about 250 metadata lookups.
 */
function validSomewhere(value: string): boolean {
  return REGIONS.some((region) => parsePhoneNumberFromString(value, { defaultCountry: region })?.isValid() === true);
}

const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region' });

/** "the United Kingdom (GB)"-style wording for statements, falling back to the code. */
export function countryWording(code: string): string {
  let name: string | undefined;
  try {
    name = REGION_NAMES.of(code);
  } catch {
    name = undefined;
  }
  return name && name !== code ? `${name} (${code})` : code;
}
