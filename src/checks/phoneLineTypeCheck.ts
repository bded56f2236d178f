import type { NumberType } from 'libphonenumber-js/max';
import { OFFLINE, PERSONAL_FACT, absent, defineCheck, neutral, weakens } from './evidence.js';
import { readPhone } from './phoneParsing.js';

/**
 * What kind of line the number belongs to. Internet-telephony, premium-rate,
 * personal (forwarding) and pager numbers are cheap to obtain, easy to drop or
 * bill the caller, so they weaken; mobile, fixed and toll-free lines are
 * ordinary and reported only.
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

export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'phone_line_type',
    kind: 'phone_line_type',
    looksAt: "the line type of the number from the numbering plan metadata",
    declares: [
      { disposition: 'weakens', strength: 'moderate', reason: 'VoIP, premium-rate and similar lines are cheap to obtain or costly to call: a modest indicator.' },
      { disposition: 'neutral', reason: 'Mobile and fixed lines are ordinary.' },
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
    return WEAKENING_LINES.has(lineType) ? weakens(statement) : neutral(statement);
  },
);
