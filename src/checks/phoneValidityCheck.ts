import { OFFLINE, PERSONAL_FACT, absent, defineCheck, neutral, weakens } from './evidence.js';
import { readPhone } from './phoneParsing.js';

/**
 * Whether the phone number exists in its country's numbering plan. A valid
 * number is reported only: nearly every number, good or bad, is valid, and a
 * valid real line in the claimed country is phone_line_type's one supporting
 * fact (`phone_real_line`), not counted twice. A number that cannot exist,
 * given as contact, weakens. A value that cannot be read as a
 * number at all is the form check's one fact (src/checks/valueFormCheck.ts),
 * and this check is not run on it.
 */
export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'phone_validity',
    kind: 'phone_validity',
    looksAt: 'whether the number parses and is valid in its numbering plan',
    declares: [
      {
        disposition: 'neutral',
        reason: "Nearly every presented number, good or bad, is valid; a real line in the claimed country is phone_line_type's support.",
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
    if (reading.status === 'needs_country') {
      return absent('no_data', 'The phone number has no country code and no country was claimed to read it in.');
    }
    if (reading.status === 'unreadable') return [];
    return reading.number.isValid()
      ? neutral('The phone number is valid in its numbering plan.')
      : weakens('The phone number is not a valid number in its numbering plan.');
  },
);
