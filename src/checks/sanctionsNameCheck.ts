import { OFFLINE, PERSONAL_FACT, absent, defineCheck, neutral, weakens, type Answer } from './evidence.js';
import { words } from './nameKeys.js';
import type { PartyKind } from './nameMatching.js';
import type { CheckDiscoveryConfig } from './registry.js';
import { DEFAULT_SANCTIONS_FILE, loadSanctionsList, type SanctionsList } from './sanctionsList.js';
import type { CheckContext, CheckDefinition } from './types.js';

/**
 * Whether a presented name closely matches a party (a person or an
 * organisation) of a sanctions list: the US Treasury's SDN list as shipped
 * (src/checks/data/sanctions), or the operator's fresher copy of it
 * (TAS_SANCTIONS_LIST). The list is indexed once at start-up
 * (src/checks/sanctionsList.ts); names are compared after normalisation,
 * with aliases counted as names (src/checks/nameMatching.ts).
 *
 * A match is graded, and each grade is its own measured fact (bench/names.ts):
 * a name is evidence about a name, not an identity. The finding says that the
 * name matches and how closely, never which list, which entry or which listed
 * name. What the claim says the subject is (a person, an organisation) only
 * narrows a match the name made: a person is not matched to an organisation.
 * Nationality and place of birth are never read (SPEC.md rule 8).
 */

const KIND = 'sanctions_match';
const GRADE_KINDS = { exact: 'sanctions_match_exact', strong: 'sanctions_match_strong', weak: 'sanctions_match_weak' } as const;

const same = (a: string, b: string) => words(a).join(' ') === words(b).join(' ');

/** What the claim says the presented name is: the claimed organisation's name, or the claimed person's. */
export function claimedKind(ctx: Pick<CheckContext, 'claim' | 'presentation'>): PartyKind | undefined {
  const value = ctx.presentation.value;
  if (ctx.claim?.organisation !== undefined && same(ctx.claim.organisation, value)) return 'entity';
  if (ctx.claim?.name !== undefined && same(ctx.claim.name, value)) return 'individual';
  return undefined;
}

/**
 * Longer than any name a person or an organisation goes by (the list's
 * longest, aliases included, is under 200 characters): such a value is not
 * screened, so a hostile one cannot hold the request path.
 */
export const MAX_NAME_LENGTH = 512;

export function answerFor(list: SanctionsList, ctx: Pick<CheckContext, 'claim' | 'presentation'>): Answer {
  if (ctx.presentation.value.length > MAX_NAME_LENGTH)
    return absent(
      'no_data',
      `The sanctions list could not be read for this name: it is longer than ${MAX_NAME_LENGTH} characters, longer than any name.`,
    );
  if (words(ctx.presentation.value).length === 0)
    return absent('no_data', 'The sanctions list could not be read for this name: it has no letters to compare.');
  const kind = claimedKind(ctx);
  const match = list.screen(ctx.presentation.value, kind === undefined ? {} : { kind });
  return match === null
    ? neutral('The name does not closely match any party of the sanctions list it was screened against.')
    : weakens(`The name closely matches a party on a sanctions list (grade: ${match.grade}).`, { kind: GRADE_KINDS[match.grade] });
}

export function sanctionsNameCheck(list: SanctionsList): CheckDefinition {
  return defineCheck(
    {
      ...OFFLINE,
      id: 'sanctions_name',
      kind: KIND,
      looksAt:
        "a person's or an organisation's name against the parties and aliases of a sanctions list, after normalising case, diacritics, punctuation, order, initials and transliteration, graded exact, strong or weak",
      // As strong as each grade's likelihood ratio supports (METHODOLOGY.md section 8, rule 2), measured by
      // `npx tsx bench/names.ts --write` on listed names typed with variants against ordinary names.
      declares: [
        {
          kind: GRADE_KINDS.exact,
          disposition: 'weakens',
          strength: 'moderate',
          reason:
            'The same name as a listed party, in any order. No ordinary name of the measured half showed it, so the lower end rests on no observed case: moderate at most.',
        },
        {
          kind: GRADE_KINDS.strong,
          disposition: 'weakens',
          strength: 'strong',
          reason:
            'Every word of a listed name met, allowing a transliteration, an initial or one extra given name; measured far above the strong threshold (a name is still no identity).',
        },
        {
          kind: GRADE_KINDS.weak,
          disposition: 'weakens',
          strength: 'weak',
          reason:
            'Part of a listed name met (the family name and a given name, one rare name at least), or a whole one resting on common names. Its measured ratio supports strong, but the ordinary names it was measured against under-represent the naming cultures most common on the list (`Ahmed Ali`, `Abdul Rahman` read as weak matches), so a match on common names alone is weak by its meaning: it never decides an answer alone.',
        },
        {
          disposition: 'neutral',
          reason: 'No close match among the parties of a sanctions list says nothing of a name: almost every name is not listed.',
        },
      ],
      artifactTypes: ['NAME'],
      trustBand: 'medium',
      dataClass: PERSONAL_FACT,
      sources: [
        {
          name: 'US Treasury OFAC SDN list (sdn.csv)',
          version: list.snapshot.replace(/^sanctions:/, ''),
          licence: 'public domain (US federal government work)',
        },
      ],
      snapshot: list.snapshot,
    },
    (ctx) => answerFor(list, ctx),
  );
}

export function createChecks(config: CheckDiscoveryConfig): CheckDefinition[] {
  return [sanctionsNameCheck(loadSanctionsList(config.sanctionsFile ?? DEFAULT_SANCTIONS_FILE))];
}
