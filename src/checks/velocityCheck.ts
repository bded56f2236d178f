import { ARTIFACT_TYPES, describeType } from './artifactTypes.js';
import { OFFLINE, PERSONAL_FACT, defineCheck, neutral, weakens } from './evidence.js';
import type { PresentationVelocity } from './types.js';

/**
 * How often the tenant was shown this value just before: the same email,
 * phone or card account in many inquiries within an hour is how card testing,
 * account farming and sign-up abuse look from the inside. A few repeats are
 * ordinary (a retried payment, a returning customer), so the thresholds sit
 * well above them, and the strength grows with the rate. Counted over the
 * tenant's own inquiries only (src/entities/history.ts velocityOf).
 */
// More than any honest retry loop produces in an hour.
const HOURLY_BURST = 10;
// A rate no person sustains: automation.
const HOURLY_FLOOD = 50;
// Many in a day without an hourly burst: a slower, steady abuse.
const DAILY_MANY = 100;

function find(velocity: readonly PresentationVelocity[] | undefined, type: string, normalised: string): PresentationVelocity | undefined {
  return velocity?.find((v) => v.type === type && v.normalised === normalised);
}

export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'velocity',
    kind: 'velocity',
    looksAt: "how many of the tenant's inquiries presented the same value in the last hour and day",
    declares: [
      {
        kind: 'velocity_hourly_burst',
        disposition: 'weakens',
        strength: 'weak',
        reason: `${HOURLY_BURST} or more in an hour is beyond honest retries, though a busy shared account can reach it.`,
      },
      {
        kind: 'velocity_hourly_flood',
        disposition: 'weakens',
        strength: 'moderate',
        reason: `${HOURLY_FLOOD} or more in an hour is a machine, not a person.`,
      },
      {
        kind: 'velocity_daily',
        disposition: 'weakens',
        strength: 'weak',
        reason: `${DAILY_MANY} or more in a day is steady, repeated use of one identity.`,
      },
      { disposition: 'neutral', reason: 'A value seen a few times is ordinary: retries and returning customers.' },
    ],
    artifactTypes: ARTIFACT_TYPES.filter((t) => t !== 'NAME'),
    // The same garbage typed again and again is counted like any other value.
    runsOnMalformed: true,
    trustBand: 'medium',
    provenanceClass: 'tenant_supplied',
    dataClass: PERSONAL_FACT,
  },
  ({ presentation, env }) => {
    const v = find(env.velocity, presentation.type, presentation.normalised);
    if (v === undefined) return [];
    const what = describeType(presentation.type);
    const seen = `The same ${what} was presented in ${v.lastHour} of the tenant's inquiries in the last hour and ${v.lastDay} in the last day.`;
    if (v.lastHour >= HOURLY_FLOOD) return weakens(seen, { kind: 'velocity_hourly_flood' });
    if (v.lastHour >= HOURLY_BURST) return weakens(seen, { kind: 'velocity_hourly_burst' });
    if (v.lastDay >= DAILY_MANY) return weakens(seen, { kind: 'velocity_daily' });
    return neutral(seen);
  },
);
