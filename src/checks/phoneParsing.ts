import {
  getCountries,
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
  type CountryCode,
  type PhoneNumber,
} from 'libphonenumber-js/max';
import type { CheckContext } from './types.js';

/** The claim's country as a region the phone library knows, or undefined. */
export function asCountryCode(country: string | undefined | null): CountryCode | undefined {
  const upper = country?.trim().toUpperCase();
  return upper !== undefined && isSupportedCountry(upper) ? upper : undefined;
}

/**
 * Where a number written without a country code was read: the country the
 * subject claims, or else the tenant's default country (its policy's
 * `default_region`). A number with its country code is read in its own plan
 * and has no such place.
 */
export interface ReadIn {
  region: CountryCode;
  because: 'claim' | 'default';
}

/**
 * Reads the presented phone number the way the phone checks share. A number
 * with its country code is read in its own plan. One in national format is
 * read where it could be meant, as a person reads it: in the claimed
 * country, else in the tenant's default country; of those it takes the first
 * where it is a valid number, and is invalid only when it is valid in none
 * (then it is read, invalid, in the first, and `tried` names them all).
 */
export type PhoneReading =
  | { status: 'parsed'; number: PhoneNumber; readIn?: ReadIn; tried?: readonly ReadIn[] }
  | { status: 'unreadable' }
  /** National format with no country to read it in: ambiguous, not wrong. */
  | { status: 'needs_country' };

const INTERNATIONAL_PREFIX = /^\s*(?:\+|00)/;
const EXIT_00 = /^\s*00/;

// Five checks read each phone presentation of an inquiry, all handed the same object: it is parsed once.
const readings = new WeakMap<CheckContext['presentation'], { places: string; reading: PhoneReading }>();

/** The places a national-format number could be meant, in order: the claimed country, then the tenant's default. */
export function placesToRead(claimed: string | undefined | null, fallback: string | undefined | null): ReadIn[] {
  const places: ReadIn[] = [];
  const claim = asCountryCode(claimed);
  const byDefault = asCountryCode(fallback);
  if (claim !== undefined) places.push({ region: claim, because: 'claim' });
  if (byDefault !== undefined && byDefault !== claim) places.push({ region: byDefault, because: 'default' });
  return places;
}

export function readPhone(ctx: Pick<CheckContext, 'presentation' | 'claim' | 'defaultCountry'>): PhoneReading {
  const places = placesToRead(ctx.claim?.country, ctx.defaultCountry);
  const key = places.map((p) => `${p.because}:${p.region}`).join(',');
  const known = readings.get(ctx.presentation);
  if (known !== undefined && known.places === key) return known.reading;
  const reading = readPhoneValue(ctx.presentation.value, places);
  readings.set(ctx.presentation, { places: key, reading });
  return reading;
}

/**
 * How a phone value reads where it could be meant (placesToRead), uncached:
 * readPhone caches it per presentation. A bare region reads as the claimed country.
 */
export function readPhoneValue(value: string, where: readonly ReadIn[] | CountryCode | undefined): PhoneReading {
  const places = where === undefined ? [] : typeof where === 'string' ? [{ region: where, because: 'claim' as const }] : where;
  const parsed = parsePhone(value, places);
  if (parsed !== undefined) return { status: 'parsed', ...parsed };
  return places.length === 0 && !INTERNATIONAL_PREFIX.test(value) && isAmbiguous(value)
    ? { status: 'needs_country' }
    : { status: 'unreadable' };
}

/** The number as readPhoneValue reads it, or undefined when it reads as none (without asking whether it is ambiguous). */
export function parsePhone(
  value: string,
  places: readonly ReadIn[],
): Omit<Extract<PhoneReading, { status: 'parsed' }>, 'status'> | undefined {
  if (INTERNATIONAL_PREFIX.test(value) || places.length === 0) {
    const from = places[0]?.region;
    const number = parsePhoneNumberFromString(value, from ? { defaultCountry: from } : {});
    if (number?.isValid() === true) return { number };
    // `00` is the exit code of most of the world, so a person reads `0044 7400 123456` as +44 wherever it was written.
    const dialledOut = EXIT_00.test(value) ? parsePhoneNumberFromString(value.replace(EXIT_00, '+')) : undefined;
    if (dialledOut?.isValid() === true) return { number: dialledOut };
    return number === undefined ? undefined : { number };
  }
  let first: { number: PhoneNumber; readIn: ReadIn } | undefined;
  for (const readIn of places) {
    const number = parsePhoneNumberFromString(value, { defaultCountry: readIn.region });
    if (number === undefined) continue;
    if (number.isValid()) return { number, readIn };
    first ??= { number, readIn };
  }
  return first === undefined ? undefined : { ...first, tried: places };
}

/**
 * A national-format number with no country to read it in is ambiguous, not
 * garbage, only when it is a valid number in at least one numbering plan.
 * "12345", valid nowhere, is garbage whatever country it was meant for, and
 * must not fare better than a number known to be invalid. Runs only on this
 * rare path (no prefix, no country): about 250 metadata lookups.
 */
function isAmbiguous(value: string): boolean {
  const digits = value.replace(/\D/g, '').length;
  return (
    digits >= MIN_NATIONAL_DIGITS &&
    REGIONS.some((region) => parsePhoneNumberFromString(value, { defaultCountry: region })?.isValid() === true)
  );
}

const REGIONS = getCountries();
// Below seven digits only a handful of island plans (Niue, Tokelau, St Helena...) have
// numbers at all; a short string with no country code is far likelier garbage than one
// of those, and calling it ambiguous would let "12345" fare better than an invalid number.
const MIN_NATIONAL_DIGITS = 7;

/**
 * The regions that share each calling code, from the library's own metadata
 * (+44: GB, GG, IM, JE; +1: the North American Numbering Plan's 25; +7: RU,
 * KZ; +262, +590, +599, +61, +47...). A number of one of them cannot be
 * told from a number of another by its calling code alone, and the plan's
 * finer split (a Guernsey mobile range) is no evidence against a claim of
 * a country that shares it.
 */
const REGIONS_BY_CODE = new Map<string, CountryCode[]>();
for (const region of REGIONS) {
  const code = getCountryCallingCode(region);
  REGIONS_BY_CODE.set(code, [...(REGIONS_BY_CODE.get(code) ?? []), region]);
}

/** The other regions under the same calling code as `region` (empty when it has the code alone). */
export function regionsSharingCode(region: CountryCode): CountryCode[] {
  return (REGIONS_BY_CODE.get(getCountryCallingCode(region)) ?? []).filter((other) => other !== region);
}

/** Whether two regions share a calling code (a region shares its own). */
export function shareCallingCode(a: CountryCode, b: CountryCode): boolean {
  return getCountryCallingCode(a) === getCountryCallingCode(b);
}

// Beyond this many, the others are counted, not listed (+1 has 24 besides any one of its regions).
const LISTED_SHARERS = 4;

/** ", a code it shares with Guernsey (GG), Isle of Man (IM) and Jersey (JE)", or "" for a code of its own. */
export function sharedCodeWording(region: CountryCode): string {
  const others = regionsSharingCode(region);
  if (others.length === 0) return '';
  if (others.length > LISTED_SHARERS) return `, a code it shares with ${others.length} other countries and territories`;
  const names = others.map(countryWording);
  const listed = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]!}`;
  return `, a code it shares with ${listed}`;
}

/** "the claimed country, the United Kingdom (GB)" or "the tenant's default country, ...": where a national number was read. */
export function readInWording(readIn: ReadIn): string {
  const whose = readIn.because === 'claim' ? 'the claimed country' : "the tenant's default country";
  return `${whose}, ${countryWording(readIn.region)}`;
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
