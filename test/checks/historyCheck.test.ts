import { describe, expect, it } from 'vitest';
import { check as history } from '../../src/checks/historyCheck.js';
import type { EntityHistory } from '../../src/checks/types.js';
import { presentation, runOn } from './support.js';

const EMPTY: EntityHistory = { assessments: [], observations: [], outcomes: [] };

describe('tenant_history', () => {
  it.each([
    ['a default', 'defaulted', 'weakens'],
    ['a reversal', 'reversed', 'weakens'],
    ['an exposure', 'exposed', 'weakens'],
    ['a repayment', 'repaid', 'supports'],
    ['a settlement', 'settled', 'supports'],
    ['a confirmation', 'confirmed', 'supports'],
  ])('given %s on record, then it %s, dated when it happened', async (_given, kind, disposition) => {
    const env = { history: { ...EMPTY, outcomes: [{ kind, observed_at: '2024-06-01T10:00:00Z' }] } };
    const result = await runOn(history, 'EMAIL', 'jane@example.com', { env });
    expect(result.signals).toHaveLength(1);
    expect(result.signals[0]).toMatchObject({
      kind: 'tenant_outcome',
      disposition,
      provenance_class: 'tenant_supplied',
      observed_at: '2024-06-01T10:00:00.000Z',
    });
  });

  it('given no history loaded, then there is no signal and no absence', async () => {
    expect(await runOn(history, 'EMAIL', 'jane@example.com')).toEqual({ signals: [], absences: [] });
  });

  it('given an empty history, then there is nothing to say', async () => {
    expect(await runOn(history, 'EMAIL', 'jane@example.com', { env: { history: EMPTY } })).toEqual({ signals: [], absences: [] });
  });

  it('given unscored outcomes and bad dates, then they are skipped', async () => {
    const outcomes = [
      { kind: 'disputed', observed_at: '2024-01-01T00:00:00Z' },
      { kind: 'repaid', observed_at: 'yesterday' },
    ];
    const result = await runOn(history, 'EMAIL', 'jane@example.com', { env: { history: { ...EMPTY, outcomes } } });
    expect(result.signals).toEqual([]);
  });

  it('given earlier assessments and observations, then they are reported, never counted', async () => {
    const env = {
      history: {
        assessments: [
          { score: 40, low: 10, high: 80, as_of: '2024-01-01T00:00:00Z' },
          { score: 62, low: 41, high: 80, as_of: '2024-09-01T00:00:00Z' },
        ],
        observations: [
          { provenance_class: 'tenant_supplied', summary: 'AcmeSecretIntel said so', observed_at: '2024-03-01T00:00:00Z' },
          { provenance_class: 'analyst_asserted', summary: 'called back', observed_at: '2024-05-01T00:00:00Z' },
        ],
        outcomes: [],
      },
    };
    const result = await runOn(history, 'PHONE', '+44 7400 123456', { env });
    expect(result.signals.map((signal) => [signal.kind, signal.disposition, signal.observed_at])).toEqual([
      ['tenant_prior_assessment', 'neutral', '2024-09-01T00:00:00.000Z'],
      ['tenant_observation', 'neutral', '2024-05-01T00:00:00.000Z'],
    ]);
    expect(result.signals[0]!.statement).toBe('The entity was assessed 2 times before; the latest score was 62 (interval 41–80).');
    expect(JSON.stringify(result)).not.toContain('AcmeSecretIntel');
  });

  it('given several presentations, then history is answered on the first one only', async () => {
    const subject = [presentation('EMAIL', 'jane@example.com'), presentation('PHONE', '+44 7400 123456')];
    const env = { history: { ...EMPTY, outcomes: [{ kind: 'repaid', observed_at: '2024-06-01T00:00:00Z' }] } };
    const onFirst = await runOn(history, 'EMAIL', 'jane@example.com', { subject, env });
    const onSecond = await runOn(history, 'PHONE', '+44 7400 123456', { subject, env });
    expect(onFirst.signals).toHaveLength(1);
    expect(onSecond.signals).toHaveLength(0);
  });
});
