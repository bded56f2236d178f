import { OFFLINE, PERSONAL_FACT, absent, defineCheck, supports, weakens } from './evidence.js';
import { readPhone } from './phoneParsing.js';

/**
 * Whether the phone number exists in its country's numbering plan. A valid
 * number is weak support (it says nothing about who holds it); a number that
 * cannot exist, given as contact, weakens. A value that cannot be read as a
 * number at all is the form check's one fact (src/checks/valueFormCheck.ts),
 * and this check is not run on it.
 */
export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'phone_validity',
    kind: 'phone_validity',
    looksAt: "whether the number parses and is valid in its numbering plan",
    declares: [
      { disposition: 'supports', strength: 'weak', reason: 'Nearly every presented number, good or bad, is valid.' },
      { disposition: 'weakens', strength: 'moderate', reason: 'An impossible number cannot reach anyone: a real indicator, but often a typo.' },
    ],
    artifactTypes: ['PHONE'],
    trustBand: 'medium',
    dataClass: PERSONAL_FACT,
  },
  (ctx) => {
    const reading = readPhone(ctx);
    if (reading.status === 'needs_country') {
      return absent('no_data', 'The phone number has no country code and no country was claimed to read it in.');
    }
    if (reading.status === 'unreadable') return [];
    return reading.number.isValid()
      ? supports('The phone number is valid in its numbering plan.')
      : weakens('The phone number is not a valid number in its numbering plan.');
  },
);
