import { describe, expect, it } from 'vitest';
import { check as mailboxBrand } from '../../src/checks/mailboxBrandCheck.js';
import { onlySignal, runOn, verdict } from './support.js';

describe('mailbox_brand', () => {
  it.each([
    ['a brand beside a role word, dotted', 'paypal.support@gmail.com', /paypal\.com/],
    ['a brand beside a role word, hyphenated', 'coinbase-help@outlook.com', /coinbase\.com/],
    ['a brand run together with a role word', 'netflixbilling@mail.ru', /netflix\.com/],
    ['a role word run together before a brand', 'supportbinance@yahoo.com', /binance\.com/],
    ['a wallet beside a lure word', 'metamask.verify@proton.me', /metamask\.io/],
  ])('given %s at a free mail provider, then it weakens naming the brand', async (_given, value, brand) => {
    const signal = onlySignal(await runOn(mailboxBrand, 'EMAIL', value));
    expect([signal.kind, signal.disposition, signal.strength]).toEqual(['mailbox_brand', 'weakens', 'moderate']);
    expect(signal.statement).toMatch(brand);
  });

  it.each([
    // A brand's name beside a person's name, or alone, is too often the person's own name.
    ['a given name that is a brand, with a surname', 'mercedes.garcia@gmail.com'],
    ['a surname that is a brand, with a given name', 'ferrari.luca@libero.it'],
    ['a brand alone', 'paypal@gmail.com'],
    ['a role word without a brand', 'jane.support@gmail.com'],
    ['an ordinary name', 'anna.smith@example.com'],
    // At a domain of its own the same name is a desk for a product the company uses, or the brand's own.
    ["a company's desk for a product it uses", 'salesforce.admin@acme-industries.com'],
    ["the brand's own domain", 'paypal.support@paypal.com'],
    // A role word must be long enough not to be a name's ending when run together.
    ['a brand run together with two letters', 'netflixpr@gmail.com'],
  ])('given %s, then it is neutral', async (_given, value) => {
    expect(verdict(await runOn(mailboxBrand, 'EMAIL', value))).toBe('neutral');
  });

  it('given an address with no mailbox part, then it is an absence', async () => {
    expect(verdict(await runOn(mailboxBrand, 'EMAIL', 'nobody'))).toBe('absence:no_data');
  });
});
