/**
 * Words a deceptive site puts in its own name to make the visit feel expected
 * or urgent: the account chores (log in, verify, unlock, restore) and the bait
 * (a giveaway, an airdrop, a bonus to claim). The first group is the
 * vocabulary that Garera et al., "A framework for detection and measurement
 * of phishing attacks" (WORM 2007), and the APWG trend reports found
 * over-represented in phishing host names; the second is the bait of the
 * giveaway and airdrop scams the same reports describe. English only, kept
 * short on purpose: this is a rule's vocabulary, not a list of subjects, and
 * it feeds a weak signal only. Words of five letters or more are found run
 * together with others (`ethgiveaway`); shorter ones only as whole tokens
 * (`free-eth`), because short words hide inside ordinary ones.
 */
const LURE_WORDS: readonly string[] = [
  'login',
  'logon',
  'signin',
  'verify',
  'verification',
  'validate',
  'validation',
  'secure',
  'unlock',
  'recover',
  'recovery',
  'restore',
  'confirm',
  'authenticate',
  'helpdesk',
  'claim',
  'airdrop',
  'giveaway',
  'bonus',
  'reward',
  'rewards',
  'prize',
  'promo',
  'gift',
  'free',
  'refund',
];

const RUN_TOGETHER_MIN = 5;
const LONG: readonly string[] = LURE_WORDS.filter((w) => w.length >= RUN_TOGETHER_MIN);
const SHORT: ReadonlySet<string> = new Set(LURE_WORDS.filter((w) => w.length < RUN_TOGETHER_MIN));

/** The first lure word in the label, or null. */
export function lureWordIn(label: string): string | null {
  const lower = label.toLowerCase();
  const long = LONG.find((word) => lower.includes(word));
  if (long !== undefined) return long;
  return lower.split(/[-0-9.]+/).find((token) => SHORT.has(token)) ?? null;
}
