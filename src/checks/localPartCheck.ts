import { OFFLINE, PERSONAL_FACT, absent, defineCheck, neutral, weakens, type SignalAnswer } from './evidence.js';
import { emailParts } from './hosts.js';
import { looksRandom } from './randomness.js';
import { ENGLISH_WORDS_SOURCE } from './englishWords.js';

/**
 * How the mailbox name is built. A mailbox people chose is a name, a word or
 * a nickname; one generated to be thrown away is a random string or a long
 * run of digits. Plus addressing (`jane+shop@`) is reported only: it is how
 * careful people sort their mail.
 */
const LONG_DIGIT_RUN = /[0-9]{6,}/;

function shapeAnswers(local: string): SignalAnswer[] {
  const base = local.split('+')[0] ?? local;
  const answers: SignalAnswer[] = [];
  if (looksRandom(base.replace(/[0-9._-]/g, '')))
    answers.push(weakens('The mailbox name reads as a random string, not a name.', { kind: 'local_part_random' }));
  if (LONG_DIGIT_RUN.test(base)) answers.push(weakens('The mailbox name carries a long run of digits.', { kind: 'local_part_digits' }));
  if (local.includes('+')) answers.push(neutral('The address uses plus addressing (a tag after +).', { kind: 'plus_addressing' }));
  return answers.length > 0 ? answers : [neutral('The mailbox name is built like an ordinary name.')];
}

export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'local_part',
    kind: 'local_part',
    looksAt: 'how the mailbox name is built: randomness, digit runs, plus addressing',
    declares: [
      {
        kind: 'local_part_random',
        disposition: 'weakens',
        strength: 'weak',
        reason: 'A mailbox no one could say aloud was made by a machine; some honest ones are initials.',
      },
      {
        kind: 'local_part_digits',
        disposition: 'weakens',
        strength: 'weak',
        reason: 'Long digit runs are typical of generated mailboxes, and of birth dates and phone numbers too.',
      },
      { kind: 'plus_addressing', disposition: 'neutral', reason: 'A tag after + is how careful people sort mail: reported only.' },
      { disposition: 'neutral', reason: 'An ordinary mailbox name says nothing either way.' },
    ],
    artifactTypes: ['EMAIL'],
    trustBand: 'low',
    dataClass: PERSONAL_FACT,
    // The letter-pair model of randomness is trained on this word list.
    sources: [ENGLISH_WORDS_SOURCE],
  },
  ({ presentation }) => {
    const parts = emailParts(presentation.value.trim());
    if (parts === null) return absent('no_data', 'The email address has no mailbox part that could be checked.');
    return shapeAnswers(parts.local);
  },
);
