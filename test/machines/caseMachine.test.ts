import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import {
  CASE_MACHINE_VERSION,
  caseMachine,
  refusalOf,
  type CaseContext,
  type CaseEvent,
  type CaseStateName,
} from '../../machines/caseMachine.js';
import { CaseChanged } from '../../src/events/schemas.js';

/**
 * Given a state and context, when a command arrives, then the next state, the
 * context and the one CaseChanged event appended; or, for an illegal command,
 * nothing at all, with `refusalOf` naming why.
 */

const ID = '00000000-0000-4000-8000-00000000000c';
const TENANT = '00000000-0000-4000-8000-00000000000b';
const ENTITY = '00000000-0000-4000-8000-00000000000e';
const input = { case_id: ID, tenant_id: TENANT, mode: 'test' as const };
const AT = '2026-01-01T00:00:00.000Z';
const LATER = '2026-01-02T00:00:00.000Z';
const who = 'key:k1';

const openEvent: CaseEvent = {
  type: 'case.open',
  at: AT,
  principal: who,
  title: 'T',
  purpose: 'investigation',
  description: null,
  authorization: { kind: 'court_order', reference: 'CO-1', issued_by: 'Court' },
  budget: 100,
  entity_ids: [ENTITY],
};

const opened = (): { value: CaseStateName; context: CaseContext } => {
  const [s0] = initialTransition(caseMachine, input);
  const [s1] = transition(caseMachine, s0, openEvent);
  return { value: s1.value, context: s1.context };
};

const given = (value: CaseStateName, over: Partial<CaseContext> = {}) =>
  caseMachine.resolveState({ value, context: { ...opened().context, ...over } });

const plain = (actions: readonly { type: string; params?: unknown }[]) => actions.map(({ type, params }) => ({ type, params }));
const changed = (change: string, state: CaseStateName, legalHold: boolean, summary: string) => ({
  type: 'appendEvent',
  params: { type: 'CaseChanged', payload: { case_id: ID, change, state, legal_hold: legalHold, principal: who, summary } },
});

const stamp = { at: LATER, principal: who };
const hold: CaseEvent = { type: 'case.hold', ...stamp, reason: 'litigation', reference: 'LH-1' };
const release: CaseEvent = { type: 'case.release', ...stamp, reason: 'lifted', reference: null };
const signOff: CaseEvent = { type: 'case.review', ...stamp, outcome: 'sign_off', note: null };
const requestChanges: CaseEvent = { type: 'case.review', ...stamp, outcome: 'request_changes', note: null };
const close: CaseEvent = { type: 'case.close', ...stamp, finding: 'confirmed' };
const addMember: CaseEvent = { type: 'case.member', ...stamp, action: 'add', member: 'analyst-7', role: 'analyst' };
const removeMember: CaseEvent = { type: 'case.member', ...stamp, action: 'remove', member: 'analyst-7', role: 'analyst' };
const intake: CaseEvent = {
  type: 'case.intake',
  ...stamp,
  intake_id: 'i1',
  keys: ['EMAIL:a@b.c'],
  entity_ids: [ENTITY],
  accepted: 1,
  duplicate: 0,
  rejected: 0,
};
const assert: CaseEvent = {
  type: 'case.assert',
  ...stamp,
  observation_id: 'o1',
  disposition: 'supports',
  entity_id: null,
  material_ids: [],
  finding_ids: [],
};

describe('case machine', () => {
  it('is version 1 with id case', () => {
    expect(CASE_MACHINE_VERSION).toBe(1);
    expect(caseMachine.id).toBe('case');
  });

  it('given input, when it starts, then it is open, unopened, and appends nothing', () => {
    const [snap, actions] = initialTransition(caseMachine, input);
    expect(snap.value).toBe('open');
    expect(snap.context.sequence).toBe(0);
    expect(plain(actions)).toEqual([]);
  });

  it('given a fresh case, when case.open arrives, then it records the case and appends opened', () => {
    const [s0] = initialTransition(caseMachine, input);
    const [s1, actions] = transition(caseMachine, s0, openEvent);
    expect(s1.value).toBe('open');
    expect(s1.context).toMatchObject({
      title: 'T',
      purpose: 'investigation',
      budget_limit: 100,
      sequence: 1,
      created_at: AT,
      updated_at: AT,
      entity_ids: [ENTITY],
    });
    expect(s1.context.members).toEqual([{ principal: who, role: 'lead', added_at: AT }]);
    expect(plain(actions)).toEqual([changed('opened', 'open', false, 'Case opened: T')]);
    // A second open is refused.
    const [s2, again] = transition(caseMachine, s1, openEvent);
    expect(again).toEqual([]);
    expect(s2).toBe(s1);
  });

  // [state, context overrides, command, next state, change, legal_hold after]
  const taken: [CaseStateName, Partial<CaseContext>, CaseEvent, CaseStateName, string, boolean][] = [
    ['open', {}, addMember, 'open', 'member_added', false],
    ['open', { members: [{ principal: 'analyst-7', role: 'analyst', added_at: AT }] }, removeMember, 'open', 'member_removed', false],
    ['open', {}, intake, 'open', 'intake', false],
    ['open', {}, assert, 'open', 'assertion', false],
    ['open', {}, hold, 'open', 'held', true],
    ['open', { legal_hold: true }, release, 'open', 'released', false],
    ['open', {}, signOff, 'signed_off', 'signed_off', false],
    ['open', {}, requestChanges, 'in_review', 'review_requested_changes', false],
    ['open', {}, close, 'closed', 'closed', false],
    ['in_review', {}, intake, 'in_review', 'intake', false],
    ['in_review', {}, signOff, 'signed_off', 'signed_off', false],
    ['in_review', { legal_hold: true }, signOff, 'signed_off', 'signed_off', true],
    ['signed_off', {}, requestChanges, 'in_review', 'review_requested_changes', false],
    ['signed_off', {}, addMember, 'signed_off', 'member_added', false],
    ['signed_off', {}, close, 'closed', 'closed', false],
    ['closed', {}, hold, 'closed', 'held', true],
    ['closed', { legal_hold: true }, release, 'closed', 'released', false],
  ];

  it.each(taken)('given %s, when the command arrives, then it is taken (%#)', (state, over, event, next, change, heldAfter) => {
    const snap = given(state, over);
    expect(refusalOf(state, snap.context, event)).toBeNull();
    const [after, actions] = transition(caseMachine, snap, event);
    expect(after.value).toBe(next);
    expect(after.context.sequence).toBe(snap.context.sequence + 1);
    expect(after.context.legal_hold).toBe(heldAfter);
    expect(after.context.updated_at).toBe(LATER);
    expect(actions).toHaveLength(1);
    const [only] = plain(actions);
    expect(only).toMatchObject({
      type: 'appendEvent',
      params: { type: 'CaseChanged', payload: { change, state: next, legal_hold: heldAfter } },
    });
    expect(CaseChanged.safeParse((only!.params as { payload: unknown }).payload).success).toBe(true);
  });

  // [state, context overrides, command, refusal contains]
  const refused: [CaseStateName, Partial<CaseContext>, CaseEvent, string][] = [
    ['open', { legal_hold: true }, close, 'legal hold'],
    ['open', { legal_hold: true }, hold, 'already on legal hold'],
    ['open', {}, release, 'not on legal hold'],
    ['open', {}, removeMember, 'not a member'],
    ['open', { members: [{ principal: 'analyst-7', role: 'analyst', added_at: AT }] }, addMember, 'already a member'],
    ['signed_off', {}, signOff, 'already signed off'],
    ['signed_off', {}, intake, 'signed-off'],
    ['signed_off', {}, assert, 'signed-off'],
    ['closed', {}, signOff, 'closed case cannot be reviewed'],
    ['closed', {}, requestChanges, 'closed case cannot be reviewed'],
    ['closed', {}, close, 'already closed'],
    ['closed', {}, intake, 'closed'],
    ['closed', {}, assert, 'closed'],
    ['closed', {}, addMember, 'closed'],
    ['open', {}, openEvent, 'already open'],
  ];

  it.each(refused)('given %s, when an illegal command arrives, then nothing changes (%#)', (state, over, event, why) => {
    const snap = given(state, over);
    expect(refusalOf(state, snap.context, event)).toContain(why);
    const [after, actions] = transition(caseMachine, snap, event);
    expect(actions).toEqual([]);
    expect(after.value).toBe(state);
    expect(after.context).toEqual(snap.context);
  });

  it('folds a whole lifecycle: the snapshot is the fold of the commands', () => {
    const [s0] = initialTransition(caseMachine, input);
    const events = [openEvent, addMember, intake, assert, hold, release, signOff, close];
    let snap = s0;
    const changes: string[] = [];
    for (const e of events) {
      const [next, actions] = transition(caseMachine, snap, e);
      snap = next;
      changes.push(...plain(actions).map((a) => (a.params as { payload: { change: string } }).payload.change));
    }
    expect(snap.value).toBe('closed');
    expect(changes).toEqual(['opened', 'member_added', 'intake', 'assertion', 'held', 'released', 'signed_off', 'closed']);
    expect(snap.context).toMatchObject({
      sequence: 8,
      finding: 'confirmed',
      closed_at: LATER,
      legal_hold: false,
      intake_keys: ['EMAIL:a@b.c'],
    });
    expect(snap.context.assertions.map((a) => a.observation_id)).toEqual(['o1']);
  });
});
