import type { NumberType, PhoneNumber } from 'libphonenumber-js/max';
import { OFFLINE, PERSONAL_FACT, absent, defineCheck, neutral, supports, weakens } from './evidence.js';
import { asCountryCode, countryWording, readPhone } from './phoneParsing.js';

/**
 * What kind of line the number belongs to. Internet-telephony, premium-rate,
 * personal (forwarding) and pager numbers are cheap to obtain, easy to drop or
 * bill the caller, so they weaken. A mobile or fixed line, valid in the
 * country the subject claims, is a real line where the subject says they
 * are: that supports (`phone_real_line`), and it is the one supporting fact
 * about the number. Its parts are not counted again: a valid number alone
 * (phone_validity) and a number that agrees with the claimed country alone
 * (claim_consistency) are reported only. Without a claimed country, or for
 * toll-free and other lines, the line is reported only; a number from
 * another country is claim_consistency's weakening fact.
 */
type LineType = NonNullable<NumberType>;

const LINE_WORDING: Record<LineType, string> = {
  MOBILE: 'a mobile line',
  FIXED_LINE: 'a fixed line',
  FIXED_LINE_OR_MOBILE: 'a fixed or mobile line',
  TOLL_FREE: 'a toll-free line',
  PREMIUM_RATE: 'a premium-rate line',
  SHARED_COST: 'a shared-cost line',
  VOIP: 'an internet telephony (VoIP) line',
  PERSONAL_NUMBER: 'a personal forwarding number',
  PAGER: 'a pager',
  UAN: 'a universal access number',
  VOICEMAIL: 'a voicemail access number',
};

const WEAKENING_LINES: ReadonlySet<LineType> = new Set(['VOIP', 'PREMIUM_RATE', 'PERSONAL_NUMBER', 'PAGER']);
// Lines a person is reached on where they live or work; what the numbering plan gives a subscriber, not a service.
const REAL_LINES: ReadonlySet<LineType> = new Set(['MOBILE', 'FIXED_LINE', 'FIXED_LINE_OR_MOBILE']);

/**
 * Whether the numbering plan places the number in the claimed country itself.
 * Stricter than claim_consistency, which does not hold a shared calling code
 * against a claim (a +1 number for Canada): to support, the plan must place
 * the number there (a +1 415 number is the United States', not Canada's).
 */
export function isInCountry(number: PhoneNumber, claimed: string): boolean {
  const region = asCountryCode(claimed);
  return region !== undefined && number.country === region;
}

export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'phone_line_type',
    kind: 'phone_line_type',
    looksAt: 'the line type of the number from the numbering plan metadata',
    declares: [
      {
        disposition: 'weakens',
        strength: 'moderate',
        reason: 'VoIP, premium-rate and similar lines are cheap to obtain or costly to call: a modest indicator.',
      },
      {
        kind: 'phone_real_line',
        disposition: 'supports',
        strength: 'moderate',
        reason:
          "A valid mobile or fixed line in the claimed country is a subscriber's line where the subject says they are; provisional until measured, since prepaid lines are cheap too.",
      },
      {
        disposition: 'neutral',
        reason: 'A line with no claimed country to place it, or a toll-free or shared line, says little either way.',
      },
    ],
    artifactTypes: ['PHONE'],
    trustBand: 'medium',
    dataClass: PERSONAL_FACT,
  },
  (ctx) => {
    const reading = readPhone(ctx);
    if (reading.status !== 'parsed' || !reading.number.isValid()) {
      return absent('no_data', 'The line type of a number that is not valid cannot be determined.');
    }
    const lineType = reading.number.getType();
    if (lineType === undefined) return absent('no_data', 'The numbering plan does not tell what kind of line this is.');
    const statement = `The phone number is ${LINE_WORDING[lineType]}.`;
    if (WEAKENING_LINES.has(lineType)) return weakens(statement);
    const claimed = ctx.claim?.country;
    if (REAL_LINES.has(lineType) && claimed !== undefined && isInCountry(reading.number, claimed)) {
      const region = asCountryCode(claimed)!;
      return supports(`The phone number is ${LINE_WORDING[lineType]} valid in the claimed country, ${countryWording(region)}.`, {
        kind: 'phone_real_line',
      });
    }
    return neutral(statement);
  },
);
