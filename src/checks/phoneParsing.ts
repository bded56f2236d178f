import { parsePhoneNumberFromString, type PhoneNumber } from 'libphonenumber-js/max';
import { asCountryCode } from './normalise.js';
import type { CheckContext } from './types.js';

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

export function readPhone(ctx: Pick<CheckContext, 'presentation' | 'claim'>): PhoneReading {
  const value = ctx.presentation.value;
  const region = asCountryCode(ctx.claim?.country);
  const number = parsePhoneNumberFromString(value, region ? { defaultCountry: region } : {});
  if (number !== undefined) return { status: 'parsed', number };
  const hasDigits = /\d{4,}/.test(value.replace(/[\s().-]/g, ''));
  return hasDigits && region === undefined && !INTERNATIONAL_PREFIX.test(value)
    ? { status: 'needs_country' }
    : { status: 'unreadable' };
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
