import { describe, expect, it } from 'vitest';
import { establishedSiteCheck } from '../../src/checks/establishedSiteCheck.js';
import { popularityList } from '../../src/checks/popularity.js';
import { isEstablishedSite, isFreeMailHost, siteOf } from '../../src/checks/establishedSites.js';
import { viewHost } from '../../src/checks/hosts.js';
import { admitEvidence } from '../../src/scoring/summary.js';
import { contextFor, onlySignal, runOn, verdict } from './support.js';

// The shipped popularity list, as the service reads it when no other is set.
const establishedSite = establishedSiteCheck(await popularityList());

describe('established sites: the data and what a site is', () => {
  it.each([
    // given a host; then its site, and whether that site is established
    ['github.com', 'github.com', true],
    ['www.stripe.com', 'stripe.com', true],
    ['mail.google.com', 'google.com', true],
    ['gmail.com', 'gmail.com', true],
    // A site on a shared platform is its own site, not the platform's; established only when the data names it.
    ['someone.github.io', 'someone.github.io', false],
    ['bybit-exchange.github.io', 'bybit-exchange.github.io', true],
    ['walletsauthy.webflow.io', 'walletsauthy.webflow.io', false],
    // Reserved for documentation (RFC 2606): no one's site, whatever a list says.
    ['example.com', 'example.com', false],
    ['shop.example', 'shop.example', false],
    ['acme-widgets.co.uk', 'acme-widgets.co.uk', false],
    ['paypa1.com', 'paypa1.com', false],
  ])('given %s, then its site is %s and established is %s', (host, site, established) => {
    expect(siteOf(viewHost(host))).toBe(site);
    expect(site !== null && isEstablishedSite(site)).toBe(established);
  });

  it.each([
    ['gmail.com', 'gmail.com', true],
    ['mail.yandex.ru', 'yandex.ru', true],
    ['stripe.com', 'stripe.com', false],
  ])('given %s, then a mailbox there is at a consumer provider: %s', (host, registrable, free) => {
    expect(isFreeMailHost(host, registrable)).toBe(free);
  });
});

describe('established_site', () => {
  it.each([
    // Sites the well-known-site data names and the popularity ranking does not rank.
    ['DOMAIN', 'ably.io', 'supports'],
    ['DOMAIN', 'www.acura.com', 'supports'],
    ['URL', 'https://1inch.io/swap', 'supports'],
    // A ranked site's standing is its rank (site_popularity's fact), not a second fact here.
    ['DOMAIN', 'github.com', 'neutral'],
    ['URL', 'https://www.amazon.com/gp/cart', 'neutral'],
    // Below its own name a well-known site may lend names to other people's pages.
    ['DOMAIN', 'elon-found.tumblr.com', 'neutral'],
    ['URL', 'https://docs.google.com/forms/d/x', 'neutral'],
    // A site on a platform does not inherit the platform's standing.
    ['URL', 'https://someone.github.io/', 'neutral'],
    ['DOMAIN', 'acme-widgets.co.uk', 'neutral'],
    ['DOMAIN', 'example.com', 'neutral'],
    ['DOMAIN', '192.0.2.1', 'neutral'],
    // A mailbox at an organisation's own established domain (its sub-domains are its own mail hosts).
    ['EMAIL', 'jane@stripe.com', 'supports'],
    ['EMAIL', 'j.doe@eng.microsoft.com', 'supports'],
    // At a domain the popularity ranking ranks (and the well-known-site data does not name).
    ['EMAIL', 'markus.weber@siemens.com', 'supports'],
    // A site on a shared platform is not an organisation's own domain.
    ['EMAIL', 'me@someone.github.io', 'neutral'],
    // A mailbox at a consumer or throw-away provider is anyone's: the provider's standing says nothing of its holder.
    ['EMAIL', 'jane.doe.1987@gmail.com', 'neutral'],
    ['EMAIL', 'jane@yahoo.co.uk', 'neutral'],
    ['EMAIL', 'jane@mailinator.com', 'neutral'],
    ['EMAIL', 'ops@acme-widgets.co.uk', 'neutral'],
    ['EMAIL', 'not an email', 'absence:no_data'],
  ])('given %s %s, when checked, then it %s', async (type, value, expected) => {
    expect(verdict(await runOn(establishedSite, type, value))).toBe(expected);
  });

  it('is a fact about the site, never naming where the data came from', async () => {
    const signal = onlySignal(await runOn(establishedSite, 'DOMAIN', 'www.ably.io'));
    expect(signal).toMatchObject({ kind: 'established_site', disposition: 'supports', fact: 'site:ably.io' });
    expect(signal.statement).toBe('The domain names ably.io, an established, widely used site.');
    expect(signal.snapshot).toMatch(/^popularity:majestic-million-top15000-2026-03\.csv@[0-9a-f]{12}$/);
  });

  it("given a mailbox at an organisation's own domain, then the fact is the mailbox's own kind", async () => {
    const signal = onlySignal(await runOn(establishedSite, 'EMAIL', 'markus.weber@siemens.com'));
    expect(signal).toMatchObject({ kind: 'organisation_mailbox', disposition: 'supports', fact: 'site:siemens.com' });
  });

  it('given a mailbox and the site it is at, then the one fact about the site is admitted once', async () => {
    const subject = [
      contextFor('EMAIL', 'jane@stripe.com').presentation,
      contextFor('DOMAIN', 'stripe.com').presentation,
      contextFor('URL', 'https://www.stripe.com/').presentation,
    ];
    const signals = [];
    for (const presentation of subject) {
      signals.push(...(await establishedSite.run(contextFor(presentation.type, presentation.value, { subject }))).signals);
    }
    expect(signals).toHaveLength(3);
    // The mailbox gives way to the site it is at; stripe.com is ranked, so its standing is site_popularity's fact.
    expect(signals.map((s) => `${s.kind}:${s.disposition}`)).toEqual([
      'organisation_mailbox:neutral',
      'established_site:neutral',
      'established_site:neutral',
    ]);
    expect(admitEvidence(signals).evidence).toHaveLength(0);
  });
});
