import { OFFLINE, PERSONAL_FACT, absent, defineCheck, neutral, weakens } from './evidence.js';
import { readInWording, readPhone, type PhoneReading } from './phoneParsing.js';

/**
 * Whether the phone number exists in its country's numbering plan. A valid
 * number is reported only: nearly every number, good or bad, is valid, and a
 * valid mobile or fixed line is phone_line_type's one supporting fact
 * (`phone_real_line`), not counted twice. A number that cannot exist,
 * given as contact, weakens. A value that cannot be read as a
 * number at all is the form check's one fact (src/checks/valueFormCheck.ts),
 * and this check is not run on it.
 *
 * A number written without a country code is read where it could be meant
 * (src/checks/phoneParsing.ts: the claimed country, else the tenant's default
 * country) and is invalid only when it is valid in none of them. With no
 * country to read it in, it is not invalid: the check cannot answer, and its
 * absence says a country is needed.
 */
// Led by the check's id, as every absence reason is (src/checks/runCheck.ts): no two checks' absences read alike.
export const NEEDS_COUNTRY =
  "phone_validity: A country is needed to tell whether the number is valid: it is written without a country code, and neither a claimed country nor the tenant's default country was given to read it in.";

export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'phone_validity',
    kind: 'phone_validity',
    looksAt: 'whether the number parses and is valid in its numbering plan',
    declares: [
      {
        disposition: 'neutral',
        reason: "Nearly every presented number, good or bad, is valid; a valid mobile or fixed line is phone_line_type's support.",
      },
      {
        disposition: 'weakens',
        strength: 'moderate',
        reason: 'An impossible number cannot reach anyone: a real indicator, but often a typo.',
      },
    ],
    artifactTypes: ['PHONE'],
    trustBand: 'medium',
    dataClass: PERSONAL_FACT,
  },
  (ctx) => {
    const reading = readPhone(ctx);
    if (reading.status === 'needs_country') return absent('no_data', NEEDS_COUNTRY);
    if (reading.status === 'unreadable') return [];
    return reading.number.isValid() ? neutral(validStatement(reading)) : weakens(invalidStatement(reading));
  },
);

type Parsed = Extract<PhoneReading, { status: 'parsed' }>;

function validStatement(reading: Parsed): string {
  return reading.readIn === undefined
    ? 'The phone number is valid in its numbering plan.'
    : `The phone number, written without a country code, is valid read in ${readInWording(reading.readIn)}.`;
}

/** Invalid where it was read; for a national number, in every place it could be meant. */
function invalidStatement(reading: Parsed): string {
  const tried = reading.tried ?? (reading.readIn ? [reading.readIn] : []);
  if (tried.length === 0) return 'The phone number is not a valid number in its numbering plan.';
  const places = tried.map(readInWording);
  const where = places.length === 1 ? `in ${places[0]!}` : `in ${places.slice(0, -1).join(', in ')}, nor in ${places[places.length - 1]!}`;
  return `The phone number, written without a country code, is not a valid number read ${where}.`;
}
