import { OFFLINE, PERSONAL_FACT, absent, defineCheck, neutral } from './evidence.js';
import { countryWording, readPhone } from './phoneParsing.js';

/**
 * Which country's numbering plan the number belongs to. Reported only: a
 * country is not evidence by itself; the claim-consistency check compares it
 * with the country the subject claims.
 */
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
    if (reading.status !== 'parsed' || !reading.number.isValid()) {
      return absent('no_data', 'The country of a number that is not valid cannot be determined.');
    }
    const { country, countryCallingCode } = reading.number;
    return country === undefined
      ? neutral(`The phone number is a non-geographic number (+${countryCallingCode}).`)
      : neutral(`The phone number belongs to the numbering plan of ${countryWording(country)}, calling code +${countryCallingCode}.`);
  },
);
