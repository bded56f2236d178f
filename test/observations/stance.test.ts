import { describe, expect, it } from 'vitest';
import { deriveStance, stanceOf } from '../../src/entities/stance.js';

describe('deriveStance (the documented rule for testimony without a stance)', () => {
  it.each([
    'chargeback: stolen card',
    'Customer reported FRAUDULENT use of the account',
    'Impersonated our support desk on the phone',
    'Betrüger, Karte gestohlen',
    'Estafa con tarjeta robada',
    'Usurpation d’identité signalée',
    'Golpe do boleto, estorno pedido',
  ])('an un-negated adverse word weakens: %s', (summary) => {
    expect(deriveStance(summary)).toBe('weakens');
  });

  it.each([
    'Paid on time for three years.',
    'No chargeback in three years.',
    'never any fraud on this account',
    'Kein Betrug festgestellt',
    'sin fraude',
    'pas de fraude',
    'sem fraude',
    '',
  ])('anything else is neutral: %s', (summary) => {
    expect(deriveStance(summary)).toBe('neutral');
  });

  it('praise is never derived from free text', () => {
    expect(deriveStance('Excellent, trustworthy, loyal customer')).toBe('neutral');
  });

  it("the tenant's own stance wins over the words", () => {
    expect(stanceOf('supports', 'the fraud alert was a false positive')).toBe('supports');
    expect(stanceOf(undefined, 'the fraud alert')).toBe('weakens');
  });

  it('is linear: a megabyte of adverse-looking words answers at once', () => {
    const summary = 'no fraud '.repeat(100_000) + 'and then it was a scam';
    expect(deriveStance(summary)).toBe('weakens');
  });
});
