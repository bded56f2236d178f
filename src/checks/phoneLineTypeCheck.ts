import type { NumberType } from 'libphonenumber-js/max';
import { OFFLINE, PERSONAL_FACT, absent, defineCheck, neutral, supports, weakens } from './evidence.js';
import { readPhone } from './phoneParsing.js';

/**
 * What kind of line the number belongs to. Internet-telephony, premium-rate,
 * personal (forwarding) and pager numbers are cheap to obtain, easy to drop or
 * bill the caller, so they weaken. A valid mobile or fixed line, in the plan
 * of the country it was read in (its own country code's, or for a number
 * written without one, the claimed or the tenant's default country:
 * src/checks/phoneParsing.ts), is a line a carrier gives a subscriber: that
 * supports (`phone_real_line`), with or without a claim, and it is the one
 * supporting fact about the number. Its parts are not counted again: a valid
 * number alone (phone_validity) and a number that agrees with the claimed
 * country (claim_consistency) are reported only; a number from another
 * country than the claimed one is claim_consistency's weakening fact.
 * Toll-free and other service lines are reported only.
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

/** The check's absences, led by its id as every absence reason is (src/checks/runCheck.ts): no two checks' absences read alike. */
export const LINE_ABSENCES = {
  needsCountry:
    "phone_line_type: The line type cannot be told without a country: the number is written without a country code, and neither a claimed country nor the tenant's default country was given.",
  invalid: 'phone_line_type: The line type cannot be told: the number is not a valid number where it was read.',
  untold: 'phone_line_type: The numbering plan does not say what kind of line this is.',
} as const;

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
        strength: 'weak',
        reason:
          "A valid mobile or fixed line is a carrier's line to a subscriber, not a throw-away service; but most numbers, good or bad, are such lines and prepaid ones cost little, so the ratio is small. No labelled corpus of good and bad numbers is within reach to measure it (METHODOLOGY section 8: at most moderate), and by its meaning it is weak.",
      },
      {
        disposition: 'neutral',
        reason: 'A toll-free, shared-cost or other service line says little either way.',
      },
    ],
    artifactTypes: ['PHONE'],
    trustBand: 'medium',
    dataClass: PERSONAL_FACT,
  },
  (ctx) => {
    const reading = readPhone(ctx);
    if (reading.status === 'needs_country') return absent('no_data', LINE_ABSENCES.needsCountry);
    if (reading.status !== 'parsed' || !reading.number.isValid()) return absent('no_data', LINE_ABSENCES.invalid);
    const lineType = reading.number.getType();
    if (lineType === undefined) return absent('no_data', LINE_ABSENCES.untold);
    const statement = `The phone number is ${LINE_WORDING[lineType]}.`;
    if (WEAKENING_LINES.has(lineType)) return weakens(statement);
    if (REAL_LINES.has(lineType)) {
      return supports(`The phone number is ${LINE_WORDING[lineType]}, valid in its numbering plan.`, { kind: 'phone_real_line' });
    }
    return neutral(statement);
  },
);
