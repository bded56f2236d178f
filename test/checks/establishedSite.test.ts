import { describe, expect, it } from 'vitest';
import { check as establishedSite } from '../../src/checks/establishedSiteCheck.js';
import { isEstablishedSite, isFreeMailHost, siteOf } from '../../src/checks/establishedSites.js';
import { viewHost } from '../../src/checks/hosts.js';
import { admitEvidence } from '../../src/scoring/summary.js';
import { contextFor, onlySignal, runOn, verdict } from './support.js';

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
    ['DOMAIN', 'github.com', 'supports'],
    ['DOMAIN', 'www.booking.com', 'supports'],
    ['URL', 'https://www.amazon.com/gp/cart', 'supports'],
    ['URL', 'https://github.com/nodejs/node', 'supports'],
    ['DOMAIN', 'gmail.com', 'supports'],
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
    const signal = onlySignal(await runOn(establishedSite, 'DOMAIN', 'www.github.com'));
    expect(signal).toMatchObject({ kind: 'established_site', disposition: 'supports', strength: 'moderate', fact: 'site:github.com' });
    expect(signal.statement).toBe('The domain names github.com, an established, widely used site.');
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
    expect(admitEvidence(signals).evidence).toHaveLength(1);
  });
});
