import { OFFLINE, PERSONAL_FACT, absent, defineCheck, neutral } from './evidence.js';
import { countryWording, readPhone, sharedCodeWording } from './phoneParsing.js';

/**
 * Which country's numbering plan the number belongs to. Reported only: a
 * country is not evidence by itself; the claim-consistency check compares it
 * with the country the subject claims. Where the country shares its calling
 * code (Guernsey, Jersey and the Isle of Man with the United Kingdom under
 * +44; the North American Numbering Plan under +1), the statement says so,
 * so that a claim of a country sharing the code, which agrees, is not read
 * as a contradiction.
 */
// Led by the check's id, as every absence reason is (src/checks/runCheck.ts): no two checks' absences read alike.
export const COUNTRY_ABSENCES = {
  needsCountry:
    "phone_country: The number's country cannot be told without a country to read it in: it is written without a country code, and neither a claimed country nor the tenant's default country was given.",
  invalid: "phone_country: The number's country cannot be told: the number is not a valid number where it was read.",
} as const;

export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'phone_country',
    kind: 'phone_country',
    looksAt: "the country of the number's numbering plan",
    declares: [{ disposition: 'neutral', reason: 'A country alone is a fact to compare, not evidence: reported only.' }],
    artifactTypes: ['PHONE'],
    trustBand: 'high',
    dataClass: PERSONAL_FACT,
  },
  (ctx) => {
    const reading = readPhone(ctx);
    if (reading.status === 'needs_country') return absent('no_data', COUNTRY_ABSENCES.needsCountry);
    if (reading.status !== 'parsed' || !reading.number.isValid()) return absent('no_data', COUNTRY_ABSENCES.invalid);
    const { country, countryCallingCode } = reading.number;
    return country === undefined
      ? neutral(`The phone number is a non-geographic number (+${countryCallingCode}).`)
      : neutral(
          `The phone number belongs to the numbering plan of ${countryWording(country)}, calling code +${countryCallingCode}${sharedCodeWording(country)}.`,
        );
  },
);
