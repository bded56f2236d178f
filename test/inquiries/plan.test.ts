import { describe, expect, it } from 'vitest';
import { normalisePresented } from '../../src/checks/normalise.js';
import type { CheckDefinition } from '../../src/checks/types.js';
import { planChecks } from '../../src/assessment/plan.js';

/** A worker check (network I/O) that fails the test if it is ever run; `unreachable` gives it a known-down dependency. */
function workerCheck(id: string, unreachable?: string): CheckDefinition {
  return {
    id,
    kind: id,
    artifactTypes: ['DOMAIN'],
    tier: 't1',
    provenanceClass: 'third_party',
    trustBand: 'low',
    dataClass: 'C0',
    cost: 2,
    timeoutMs: 1000,
    runs: 'worker',
    looksAt: id,
    declares: [],
    run: () => {
      throw new Error(`${id} must not run`);
    },
    ...(unreachable === undefined ? {} : { unreachableReason: () => unreachable }),
  };
}

const presentations = normalisePresented([{ type: 'DOMAIN', value: 'shop.example' }], undefined);
// The smallest stake buys two worker checks (METHODOLOGY.md section 4): a and b, in id order; c is over budget.
const stake = { kind: 'payment', amount: 1, currency: 'GBP' } as const;

describe('planChecks, a worker check whose dependency is down', () => {
  it('is answered inline with its absence, after the budget was spent as if it were up', () => {
    const plan = planChecks({
      inquiryId: 'inq',
      presentations,
      tierCeiling: 't1',
      stake,
      checks: [workerCheck('a'), workerCheck('b', 'The resolver is silent.'), workerCheck('c', 'The resolver is silent.')],
    });
    expect(plan.worker.map((p) => p.check.id)).toEqual(['a']);
    expect(plan.absences).toEqual([expect.objectContaining({ kind: 'budget', about: 'shop.example' })]);
    const [answered] = plan.inline;
    expect(plan.inline).toHaveLength(1);
    // Nothing is asked of the dependency, so the call's audited cost leaves it out.
    expect(answered!.check).toMatchObject({ id: 'b', runs: 'inline', cost: 0 });
    const result = answered!.check.run({
      presentation: presentations[0]!,
      subject: presentations,
      now: new Date(),
      signal: new AbortController().signal,
      env: {},
    });
    expect(result).toEqual({
      signals: [],
      absences: [{ about: 'shop.example', about_type: 'DOMAIN', kind: 'error', reason: 'The resolver is silent.' }],
    });
  });

  it('with no worker reachable (the queue is down), every budgeted worker check is answered at once, whatever its own hook says', () => {
    const plan = planChecks({
      inquiryId: 'inq',
      presentations,
      tierCeiling: 't1',
      stake,
      checks: [workerCheck('a'), workerCheck('b'), workerCheck('c')],
      workersUnreachable: 'The queue is down.',
    });
    expect(plan.worker).toEqual([]);
    expect(plan.inline.map((p) => p.check.id)).toEqual(['a', 'b']);
    expect(plan.absences).toEqual([expect.objectContaining({ kind: 'budget' })]);
  });

  it('a hook that throws does not fail the plan: the check goes to the worker, where its run is guarded', () => {
    const throwing = {
      ...workerCheck('a'),
      unreachableReason: (): string | null => {
        throw new Error('unforeseen value');
      },
    };
    const plan = planChecks({ inquiryId: 'inq', presentations, tierCeiling: 't1', stake, checks: [throwing] });
    expect(plan.worker.map((p) => p.check.id)).toEqual(['a']);
  });

  it('a dependency that is up (null reason) leaves the check to the worker', () => {
    const plan = planChecks({
      inquiryId: 'inq',
      presentations,
      tierCeiling: 't1',
      stake,
      checks: [{ ...workerCheck('a'), unreachableReason: () => null }],
    });
    expect(plan.worker.map((p) => p.check.id)).toEqual(['a']);
    expect(plan.inline).toEqual([]);
  });
});
