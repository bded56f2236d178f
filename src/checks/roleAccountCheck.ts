import { ROLE_LOCAL_PARTS, ROLE_SOURCE } from './emailDomains.js';
import { OFFLINE, PERSONAL_FACT, absent, defineCheck, neutral, weakens } from './evidence.js';
import { emailParts } from './hosts.js';
import type { SubjectClaim } from './types.js';

/**
 * Whether the address is a shared role mailbox (info@, admin@...). For an
 * organisation that is normal; for a subject claiming to be a person it means
 * the contact point is not tied to that person, which weakens a little.
 */

/** The mailbox without sub-addressing (`sales+eu` is still `sales`). */
export function roleOf(local: string): string | null {
  const base = local.toLowerCase().split('+')[0] ?? '';
  return ROLE_LOCAL_PARTS.has(base) ? base : null;
}

function claimsToBeAPerson(claim: SubjectClaim | undefined): boolean {
  return claim?.name !== undefined && claim.organisation === undefined;
}

export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'role_account',
    kind: 'role_account',
    looksAt: 'whether the mailbox is a shared role address (info@, admin@...)',
    declares: [
      { disposition: 'weakens', strength: 'moderate', reason: 'A role mailbox where a person is claimed is a real but modest indicator.' },
      { disposition: 'neutral', reason: 'A personal mailbox, or a role mailbox for an organisation, is ordinary.' },
    ],
    artifactTypes: ['EMAIL'],
    trustBand: 'low',
    dataClass: PERSONAL_FACT,
    sources: [ROLE_SOURCE],
  },
  ({ presentation, claim }) => {
    const parts = emailParts(presentation.value.trim());
    if (parts === null) return absent('no_data', 'The email address has no mailbox part that could be checked.');
    const role = roleOf(parts.local);
    if (role === null) return neutral('The email address is not a shared role mailbox.');
    return claimsToBeAPerson(claim)
      ? weakens(`The email address is a shared role mailbox (${role}@), not a personal one, although the subject claims to be a person.`)
      : neutral(`The email address is a shared role mailbox (${role}@).`);
  },
);
