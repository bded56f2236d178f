import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTypoOf, lookalikeCheck } from '../../src/checks/domainLookalikeCheck.js';
import { popularityList, readPopularityList } from '../../src/checks/popularity.js';
import { check as suffix } from '../../src/checks/domainSuffixCheck.js';
import { check as homograph } from '../../src/checks/homographCheck.js';
import { check as ipLiteral } from '../../src/checks/ipLiteralHostCheck.js';
import { check as shortener } from '../../src/checks/urlShortenerCheck.js';
import { check as sharedHosting } from '../../src/checks/sharedHostingCheck.js';
import { check as urlShape } from '../../src/checks/urlShapeCheck.js';
import { onlySignal, runOn, verdict } from './support.js';

// Over the shipped popularity list, as the service reads it when no other is set.
const lookalike = lookalikeCheck(await popularityList());

describe('public_suffix', () => {
  it.each([
    ['a domain under .co.uk', 'DOMAIN', 'www.example.co.uk', 'neutral'],
    ['a web address', 'URL', 'https://shop.example.com/cart?x=1', 'neutral'],
    ['an email domain', 'EMAIL', 'jane@example.org', 'neutral'],
    ['an unknown suffix', 'DOMAIN', 'example.notarealtld', 'weakens'],
    ['a bare public suffix', 'DOMAIN', 'co.uk', 'weakens'],
    ['a single label', 'URL', 'http://intranet/', 'weakens'],
    // A value with no readable host is the form check's one fact (valueForm.test.ts).
    ['an unparseable web address', 'URL', 'http://exa mple.com', 'nothing'],
    ['an IP host', 'URL', 'http://192.0.2.10/login', 'neutral'],
    ['an email with no domain', 'EMAIL', 'jane', 'nothing'],
  ])('given %s, when checked, then it %s', async (_given, type, value, expected) => {
    expect(verdict(await runOn(suffix, type, value))).toBe(expected);
  });

  it.each([
    ['a free suffix where throw-away domains crowd', 'EMAIL', 'jane@quickbox.tk', 'throwaway_suffix'],
    ['a cheap new suffix', 'URL', 'https://wallet-sync.xyz/', 'throwaway_suffix'],
  ])('given %s, then it weakens as %s', async (_given, type, value, kind) => {
    const signal = onlySignal(await runOn(suffix, type, value));
    expect([signal.kind, signal.disposition, signal.strength]).toEqual([kind, 'weakens', 'moderate']);
  });

  it('given an address at a listed throw-away domain under a crowded suffix, then the suffix is not counted again', async () => {
    const listed = await runOn(suffix, 'EMAIL', 'jane@guerillamail.info');
    expect(verdict(listed)).toBe('neutral');
    expect(listed.signals[0]!.statement).toMatch(/judged by its listing/);
    expect(onlySignal(await runOn(suffix, 'EMAIL', 'jane@quiet-harbour-books.info')).kind).toBe('throwaway_suffix');
  });

  it.each(['example.com', 'example.de', 'example.io', 'example.co.uk', 'example.org'])(
    'given the established suffix of %s, then it is neutral',
    async (value) => {
      expect(verdict(await runOn(suffix, 'DOMAIN', value))).toBe('neutral');
    },
  );
});

describe('ip_literal_host', () => {
  it.each([
    ['an IPv4 host', 'URL', 'http://203.0.113.5:8080/pay', 'weakens'],
    ['an IPv6 host', 'URL', 'http://[2001:db8::1]/', 'weakens'],
    ['an address literal email', 'EMAIL', 'jane@[198.51.100.7]', 'weakens'],
    ['a named host', 'URL', 'https://example.com', 'neutral'],
    ['an IPv6 address presented as a domain', 'DOMAIN', '2001:db8::5', 'weakens'],
    ['a pasted address presented as a domain', 'DOMAIN', 'https://example.com/about', 'neutral'],
    ['no host', 'URL', '', 'absence:no_data'],
  ])('given %s, when checked, then it %s', async (_given, type, value, expected) => {
    expect(verdict(await runOn(ipLiteral, type, value))).toBe(expected);
  });
});

describe('url_shortener', () => {
  it.each([
    ['a bit.ly link', 'URL', 'https://bit.ly/3abcDEF', 'weakens'],
    ['a shortener presented as a domain', 'DOMAIN', 'tinyurl.com', 'weakens'],
    ['an ordinary site', 'URL', 'https://example.com/a', 'neutral'],
  ])('given %s, when checked, then it %s', async (_given, type, value, expected) => {
    expect(verdict(await runOn(shortener, type, value))).toBe(expected);
  });
});

describe('domain_homograph', () => {
  it.each([
    ['plain ASCII', 'DOMAIN', 'example.com', 'neutral', /plain ASCII/],
    ['a single-script internationalised name', 'DOMAIN', 'bücher.de', 'neutral', /no deceptive mix/],
    ['a Cyrillic name in punycode', 'DOMAIN', 'xn--e1awd7f.com', 'weakens', /Cyrillic letters that look like Latin/],
    ['Latin mixed with one Cyrillic letter', 'URL', 'https://gаrdenshed.com/login', 'weakens', /mixes Cyrillic and Latin/],
    ['a mixed-script email domain', 'EMAIL', 'jane@mоnastery-tours.org', 'weakens', /mixes/],
    // A homograph of a brand is one deception: the look-alike check counts it, naming the brand.
    [
      'a Cyrillic name imitating a brand',
      'DOMAIN',
      'xn--80ak6aa92e.com',
      'neutral',
      /Cyrillic letters that look like Latin.*apple\.com.*counted once/,
    ],
    [
      'a brand with one Cyrillic letter',
      'URL',
      'https://pаypal.com/login',
      'neutral',
      /mixes Cyrillic and Latin.*paypal\.com.*counted once/,
    ],
    ['a mixed-script email domain imitating a brand', 'EMAIL', 'jane@gооgle.com', 'neutral', /google\.com.*counted once/],
    // The brand written plainly beside a word whose letters are mixed: the mixing is a deception of its own.
    [
      'a plain brand beside a mixed-script word',
      'DOMAIN',
      'paypal-lоgin.com',
      'weakens',
      /mixes Cyrillic and Latin letters in the label "paypal-lоgin"/,
    ],
    ['Japanese with Latin', 'DOMAIN', 'abc日本語ひらがな.jp', 'neutral', /no deceptive mix/],
  ])('given %s, when checked, then it %s', async (_given, type, value, disposition, statement) => {
    const signal = onlySignal(await runOn(homograph, type, value));
    expect(signal.disposition).toBe(disposition);
    expect(signal.statement).toMatch(statement);
  });

  it('given no host, then it is an absence', async () => {
    expect(verdict(await runOn(homograph, 'EMAIL', 'nobody'))).toBe('absence:no_data');
  });
});

describe('domain_lookalike on real names', () => {
  // A brand's own domains and their sub-domains, large free-mail providers and ordinary
  // companies are never marked as imitations (issue 11).
  it.each([
    ['DOMAIN', 'login.paypal.com'],
    ['URL', 'https://accounts.google.com/signin'],
    ['DOMAIN', 'www.netflix.com'],
    ['URL', 'https://www.coinbase.com/signin'],
    ['EMAIL', 'jane@outlook.com'],
    ['EMAIL', 'jane@yahoo.com'],
    ['EMAIL', 'jane@hotmail.co.uk'],
    ['EMAIL', 'jane@web.de'],
    ['DOMAIN', 'siemens-energy.com'],
    ['DOMAIN', 'bakery-online.co.uk'],
    ['DOMAIN', 'answers.com'],
    ['DOMAIN', 'motion.com'],
    ['DOMAIN', 'apple-farm.com'],
    ['DOMAIN', 'orange-juice.example'],
    ['EMAIL', 'ops@acme-industries.com'],
    ['DOMAIN', 'infinity.exchange'],
    ['DOMAIN', 'www.binance.com'],
    ['URL', 'https://pro.coinbase.com/trade'],
    // Wallets' own domains (from the wallet list): their sites and their help pages.
    ['DOMAIN', 'metamask.io'],
    ['URL', 'https://support.ledger.com/'],
    ['DOMAIN', 'trustwallet.com'],
    // Real mail providers: a country's name (ireland.com is a brand), a word split by a hyphen or given a
    // letter (inbox.com, mailbox.org), a letter that is no slip of the finger, two edits that spell other words.
    ['EMAIL', 'jane@mail2ireland.com'],
    ['EMAIL', 'jane@in-box.net'],
    ['EMAIL', 'jane@imailbox.com'],
    ['EMAIL', 'jane@eastmail.com'],
    ['EMAIL', 'jane@prontomail.com'],
    // Public bodies' own zones named after a restricted suffix: a canton's and a region's schools.
    ['EMAIL', 'jane@stud.edu.zh.ch'],
    ['DOMAIN', 'ksz.edu-zg.ch'],
    ['EMAIL', 'jane@alu.edu.gva.es'],
    // Four letters are an acronym's length: universities one letter from a brand of five (udemy, tesco),
    // or reading like a brand of four only by chance (tum for turn, mait for malt).
    ['DOMAIN', 'udem.edu'],
    ['EMAIL', 'jane@tesc.edu'],
    ['DOMAIN', 'tum.de'],
    ['EMAIL', 'jane@mait.ac.in'],
    // One letter from a mail provider named by an ordinary word (casino.com) is another company, not its typo.
    ['DOMAIN', 'casio.com'],
    ['EMAIL', 'jane@casio.co.jp'],
    // Names a vetted registry gave (edu: accredited colleges), one letter from a brand (bereal.com, adelphia.net).
    ['DOMAIN', 'berea.edu'],
    ['EMAIL', 'jane@adelphi.edu'],
    ['URL', 'https://www.berea.edu/admissions'],
    // Ordinary words written together, where a brand only appears across their joins (alumn|idirect|or).
    ['EMAIL', 'jane@alumnidirector.com'],
    ['EMAIL', 'jane@businessweekmail.com'],
    ['EMAIL', 'jane@blushmail.com'],
    // A name with a digit (mail2web) is not found misspelt after another digit-joined word.
    ['EMAIL', 'jane@mail2wendy.com'],
    ['EMAIL', 'jane@mail2finance.com'],
    // Real names with digits in them, which the disguised-name rule reads as letters (1 as l, 4 as a).
    ['DOMAIN', '1password.com'],
    ['DOMAIN', '1800flowers.com'],
    ['DOMAIN', 'love4ever.com'],
    ['DOMAIN', 'web3-labs.io'],
    // A brand's own compound domains, which it serves its pages from (third-party-web names them).
    ['DOMAIN', 'paypalobjects.com'],
    ['URL', 'https://raw.githubusercontent.com/nodejs/node/main/README.md'],
    ['URL', 'https://www.youtube-nocookie.com/embed/x'],
    ['DOMAIN', 'scontent.cdninstagram.com'],
    ['DOMAIN', 'www.googleapis.com'],
    // A label that reads wholly as ordinary words holds no name that is not those words (lytics in analytics).
    ['DOMAIN', 'heapanalytics.com'],
    ['DOMAIN', 'coremetrics.com'],
    // Below a well-known domain: its own services, and a customer's space named by its bare brand name.
    ['DOMAIN', 'developer.apple.com'],
    ['DOMAIN', 'office.microsoft.com'],
    ['URL', 'https://mail.google.com/mail/u/0/'],
    ['DOMAIN', 'coinbase.zendesk.com'],
    // Companies' known script and content hosts (third-party-web), which happen to lie one edit from a brand.
    ['URL', 'https://static.licdn.com/aero-v1/sc/h/x.js'],
    ['DOMAIN', 'bstatic.com'],
    // Domains the popularity ranking ranks are sites of their own, platforms' tenant domains among them (issue 47 item 5).
    ['EMAIL', 'owner@acme-widgets.myshopify.com'],
    ['DOMAIN', 'microsoftonline.com'],
    ['URL', 'https://login.microsoftonline.com/common/oauth2'],
    ['DOMAIN', 'bucket.digitaloceanspaces.com'],
  ])('given %s %s, then it is not flagged', async (type, value) => {
    const signals = (await runOn(lookalike, type, value)).signals;
    expect(signals.every((signal) => signal.disposition !== 'weakens')).toBe(true);
  });

  it.each([
    ['a combosquat', 'DOMAIN', 'coinbase-wallet-verify.com', 'brand_embedded'],
    ['a brand run together with ordinary words', 'DOMAIN', 'paypalsecure.com', 'brand_embedded'],
    ['a brand of two words run together with another', 'URL', 'https://coinbasewallet.net/', 'brand_embedded'],
    ['a brand in the plural beside a word', 'DOMAIN', 'localpaypals.com', 'brand_embedded'],
    ['a brand on a shared hosting platform', 'URL', 'https://paypal-login.web.app/', 'domain_lookalike'],
    ['a brand as the tenant of a ranked platform domain', 'DOMAIN', 'paypal-login.myshopify.com', 'domain_lookalike'],
    ['the brand itself as a platform site', 'URL', 'https://binance.pages.dev/', 'domain_lookalike'],
    ['a dropped letter', 'DOMAIN', 'netflx.com', 'domain_lookalike'],
    ['accented and decorated letters (UTS #39-style skeleton)', 'DOMAIN', 'ṗäÿṗäł.com', 'domain_lookalike'],
    ['Greek and Cyrillic letters', 'URL', 'https://соinbаse.com/', 'domain_lookalike'],
    ['a name run together with bait', 'DOMAIN', 'coinbasebonus.net', 'brand_embedded'],
    ['a misspelt name as a token', 'DOMAIN', 'login-coinbsae.space', 'brand_embedded'],
    ['a misspelt name run together', 'DOMAIN', 'coinbasse.com', 'domain_lookalike'],
    ['one substituted letter in a seven-letter name', 'DOMAIN', 'blnance.com', 'domain_lookalike'],
    ['an accented letter, in punycode', 'DOMAIN', 'xn--coinbse-lwa.com', 'domain_lookalike'],
    ['the name as a whole sub-domain label', 'URL', 'https://coinbase.com-secure-3f9a.site/', 'domain_lookalike'],
    ['a misspelt top site (from the popularity list)', 'DOMAIN', 'amazzon.com', 'domain_lookalike'],
    ['a top site run together with bait', 'URL', 'https://whatsapp-verify.top/', 'brand_embedded'],
    ['a distinctive name split by a hyphen', 'DOMAIN', 'pay-pal.com', 'domain_lookalike'],
    ['a wallet split by a hyphen (from the wallet list)', 'DOMAIN', 'meta-mask.io', 'domain_lookalike'],
    ['a wallet with a doubled letter', 'DOMAIN', 'leedger.io', 'domain_lookalike'],
    ['a wallet beside a word', 'URL', 'https://uniswap-airdrop.info/', 'brand_embedded'],
    // A name in disguise beside other words: digits or look-alike letters for some of its letters.
    ['a digit for a letter, beside a word', 'DOMAIN', 'paypa1-login.com', 'domain_lookalike'],
    ['zeros for o in a brand named by a word', 'URL', 'https://amaz0n-security.com/', 'domain_lookalike'],
    ['a one for i, after a word', 'DOMAIN', 'billing-netf1ix.net', 'domain_lookalike'],
    ['a one for l in a word brand', 'DOMAIN', 'app1e-id.com', 'domain_lookalike'],
    ['rn for m beside a word', 'DOMAIN', 'rnicrosoft-support.com', 'domain_lookalike'],
    ['a disguised name run together with a word', 'DOMAIN', 'amaz0nsecurity.com', 'domain_lookalike'],
    // Another brand's name on a user's page below a well-known site that is not on the platform list.
    ['a brand beside words below a well-known site', 'URL', 'https://secure-paypal-com.weebly.com/', 'brand_embedded'],
    ['a four-letter name as a token', 'DOMAIN', 'usps-redelivery-info.com', 'brand_embedded'],
    // A brand in a sub-domain label of a domain that is not its own.
    ['a brand beside a word in a sub-domain', 'URL', 'https://paypal-verify.secure-login.xyz/', 'brand_embedded'],
    ['a domain spelt with hyphens in a sub-domain', 'URL', 'https://www-paypal-com.evil.example/', 'brand_embedded'],
    ['a disguised brand as a sub-domain label', 'URL', 'https://login.paypa1.evil.example/', 'domain_lookalike'],
    // The name in a sub-domain is the domain's own business when its own name holds it: only that name counts.
    ['a brand in a sub-domain of a domain named after it', 'DOMAIN', 'paypal.paypal-community.com', 'brand_embedded'],
    ['a disguised brand below a well-known site', 'DOMAIN', 'paypa1-verify.tumblr.com', 'domain_lookalike'],
    // A vetted registry vets the registered name, not what a compromised site names below it.
    ['a brand beside a word in a sub-domain of a college', 'URL', 'https://paypal-verify.berea.edu/', 'brand_embedded'],
  ])('given %s, then it weakens', async (_given, type, value, kind) => {
    const signal = onlySignal(await runOn(lookalike, type, value));
    expect([signal.kind, signal.disposition]).toEqual([kind, 'weakens']);
  });
});

describe('domain_lookalike', () => {
  it.each([
    // Being the site itself is no imitation; that it is established is established_site's one fact (establishedSite.test.ts).
    ['the well-known domain itself', 'DOMAIN', 'paypal.com', 'neutral', /is the well-known domain paypal.com itself, not an imitation/],
    ['a well-known email domain', 'EMAIL', 'jane@gmail.com', 'neutral', /gmail.com itself/],
    ['a top site itself', 'DOMAIN', 'booking.com', 'neutral', /booking.com itself/],
    ['a top site behind www', 'URL', 'https://www.amazon.com/', 'neutral', /amazon.com itself/],
    [
      "a sub-domain of a top site, which may be a user's page",
      'URL',
      'https://smile.amazon.com/',
      'neutral',
      /below the well-known domain amazon.com/,
    ],
    ["a user's blog under a well-known domain", 'DOMAIN', 'elon-found.tumblr.com', 'neutral', /below the well-known domain tumblr.com/],
    ['a site on a platform whose own domain is well known', 'DOMAIN', 'walletsauthy.webflow.io', 'neutral', /does not resemble/],
    ['the same name under a country suffix', 'DOMAIN', 'amazon.se', 'neutral', /different suffix/],
    // Ranked by popularity: a site of its own, as a known site is.
    ['the same name under a country suffix, ranked', 'DOMAIN', 'amazon.nl', 'neutral', /company's own|known/],
    // A company's own sites on other people's domains, as its own data (ccxt's documentation pages, simple-icons' sources) names them.
    [
      "an exchange's own documentation on a code-hosting platform",
      'URL',
      'https://bybit-exchange.github.io/docs/',
      'neutral',
      /bybit-exchange.github.io is a company's own site on another domain/,
    ],
    [
      "an exchange's own documentation below a documentation service",
      'DOMAIN',
      'hashkeyglobal-apidoc.readme.io',
      'neutral',
      /company's own site/,
    ],
    ["a project's own site on a shared platform", 'DOMAIN', 'webpack.js.org', 'neutral', /company's own site/],
    [
      'a page of an own site on a platform',
      'URL',
      'https://docs.hyperliquid.gitbook.io/api',
      'neutral',
      /hyperliquid.gitbook.io is a company's own site/,
    ],
    ["an exchange's own compound domain", 'DOMAIN', 'binancefuture.com', 'neutral', /binancefuture.com itself/],
    [
      'the same brand beside other words on the same platform, not its own',
      'DOMAIN',
      'bybit-exchange-support.github.io',
      'weakens',
      /bybit.com/,
    ],
    // Real sites the maintained sources name (simple-icons' logo pages, ccxt's exchange URLs) are known sites.
    [
      'a company site a logo was taken from, one edit from another brand',
      'DOMAIN',
      'adacore.com',
      'neutral',
      /adacore.com is a company's known site/,
    ],
    ["a brand's corporate site", 'URL', 'https://newsroom.paypal-corp.com/', 'neutral', /paypal-corp.com is a company's known site/],
    ["an exchange's regional domain", 'DOMAIN', 'lbank.info', 'neutral', /known site/],
    [
      'its own brand in a sub-domain of a known site whose name holds it',
      'DOMAIN',
      'paypal-login.paypal-corp.com',
      'neutral',
      /known site/,
    ],
    ['another brand in a sub-domain of a known site', 'DOMAIN', 'metamask-help.alibabagroup.com', 'weakens', /metamask.io/],
    [
      'the same brand beside other words below the same documentation service, not its own',
      'DOMAIN',
      'hashkey-verify.readme.io',
      'weakens',
      /hashkey.com/,
    ],
    ['a digit for a letter', 'DOMAIN', 'paypa1.com', 'weakens', /reads like the well-known domain paypal.com/],
    ['rn for m', 'URL', 'https://rnicrosoft.com/', 'weakens', /microsoft.com/],
    ['rn for m in a name of four letters', 'DOMAIN', 'rneta.com', 'weakens', /meta.com/],
    ['a digit for a letter in a name of four letters', 'DOMAIN', 'ub3r.com', 'weakens', /uber.com/],
    ['a dropped letter', 'EMAIL', 'jane@gogle.com', 'weakens', /1 edit away from the well-known domain google.com/],
    ['two swaps in a long name', 'DOMAIN', 'wellsfrago.com', 'weakens', /wellsfargo.com/],
    ['a swap in a five-letter name', 'EMAIL', 'jane@gmial.com', 'weakens', /gmail.com/],
    ['a dropped letter of a mail provider, in four letters', 'EMAIL', 'jane@gmai.com', 'weakens', /gmail.com/],
    ['a one-letter substitution in a five-letter name', 'DOMAIN', 'apply.com', 'neutral', /does not resemble/],
    ['the name as a token', 'URL', 'https://paypal-login.net/verify', 'weakens', /contains the name of the well-known domain paypal.com/],
    [
      'the whole domain as a sub-domain',
      'URL',
      'https://paypal.com.account-check.net/',
      'weakens',
      /begins like the well-known domain paypal.com but belongs to account-check.net/,
    ],
    ['a Cyrillic imitation', 'DOMAIN', 'аpple.com', 'weakens', /apple.com/],
    [
      'an unknown name spelt as a domain before the real one',
      'DOMAIN',
      'acme-wallet.com.verify-now.xyz',
      'weakens',
      /spells the domain name acme-wallet.com before its own domain verify-now.xyz/,
    ],
    [
      'a domain run into its own name with a hyphen',
      'URL',
      'https://acme-wallet.com-verify.xyz/login',
      'weakens',
      /spells the domain name acme-wallet.com/,
    ],
    ['a country domain spelt before the real one', 'DOMAIN', 'shop.co.uk.account-check.net', 'weakens', /shop.co.uk/],
    ['a regional sub-domain', 'DOMAIN', 'shop.de.acme-industries.com', 'neutral', /does not resemble/],
    ['a sub-domain that is a newer suffix word', 'URL', 'https://help.support.acme-industries.com/', 'neutral', /does not resemble/],
    ['a region code starting a label', 'DOMAIN', 'api.us-east-1.acme-industries.com', 'neutral', /does not resemble/],
    ['an unrelated name', 'DOMAIN', 'acme-industries.com', 'neutral', /does not resemble/],
    ['an IP host', 'URL', 'http://192.0.2.1/', 'neutral', /no name to compare/],
  ])('given %s, when checked, then it %s', async (_given, type, value, disposition, statement) => {
    const signal = onlySignal(await runOn(lookalike, type, value));
    expect(signal.disposition).toBe(disposition);
    expect(signal.statement).toMatch(statement);
  });

  it.each([
    ['short names never count', 'dhi', 'dhl', null],
    ['five letters: a substitution is a different word', 'email', 'gmail', null],
    ['five letters: an insertion is a typo', 'gmaill', 'gmail', 1],
    ['six letters: an insertion, a drop or a swap', 'gogle', 'google', 1],
    ['six letters: a substitution is another word', 'motion', 'notion', null],
    ['seven letters: a look-alike substitution is a typo', 'blnance', 'binance', 1],
    ['seven letters: a neighbouring key is a typo', 'binsnce', 'binance', 1],
    ['eight letters: a far-off key spells another name', 'eastmail', 'fastmail', null],
    ['a letter before a brand named by a word makes another word', 'imailbox', 'mailbox', null],
    ['a letter after a distinctive name is still a typo', 'paypall', 'paypal', 1],
    ['two edits that are other words written together', 'prontomail', 'protonmail', null],
    ['ten letters: two edits', 'welsfarg0', 'wellsfargo', 2],
    ['identity is not a typo', 'paypal', 'paypal', null],
  ])('typo rule: %s', (_rule, candidate, known, expected) => {
    expect(isTypoOf(candidate, known)).toBe(expected);
  });
});

describe('shared_hosting', () => {
  it.each([
    ['a site on a platform', 'URL', 'https://my-project.github.io/', 'weakens'],
    ['a Firebase site', 'DOMAIN', 'shop-login.web.app', 'weakens'],
    ['the platform itself', 'DOMAIN', 'github.io', 'neutral'],
    ['a registered domain', 'URL', 'https://example.com/', 'neutral'],
    ['a mailbox on a dynamic-DNS name', 'EMAIL', 'jane@mail-box-7.dynv6.net', 'weakens'],
    ['a mailbox at a registered domain', 'EMAIL', 'jane@example.co.uk', 'neutral'],
    ['a mailbox at a large provider', 'EMAIL', 'jane@gmail.com', 'neutral'],
    [
      'IPFS content by path (CIDv0) on a gateway',
      'URL',
      'https://ipfs.io/ipfs/QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG/login.html',
      'weakens',
    ],
    [
      'IPFS content by path (CIDv1) on any gateway',
      'URL',
      'https://gateway.example.org/ipfs/bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
      'weakens',
    ],
    ['an IPNS name on a gateway', 'URL', 'https://dweb.link/ipns/wallet-support.eth/', 'weakens'],
    [
      'IPFS content as a gateway sub-domain',
      'URL',
      'https://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi.ipfs.w3s.link/',
      'weakens',
    ],
    ["the gateway's own home page", 'URL', 'https://ipfs.io/', 'neutral'],
    ['a path named ipfs without a content identifier', 'URL', 'https://docs.ipfs.tech/ipfs/how-to/', 'neutral'],
    ['a domain presented alone (no path to read)', 'DOMAIN', 'ipfs.io', 'neutral'],
  ])('given %s, when checked, then it %s', async (_given, type, value, expected) => {
    expect(verdict(await runOn(sharedHosting, type, value))).toBe(expected);
  });

  it('a platform site is a fact about that site, whichever presentation names it; IPFS content is a fact about the address', async () => {
    const site = onlySignal(await runOn(sharedHosting, 'EMAIL', 'jane@mail-box-7.dynv6.net'));
    expect(site.fact).toBe('site:mail-box-7.dynv6.net');
    expect(onlySignal(await runOn(sharedHosting, 'URL', 'https://www.mail-box-7.dynv6.net/')).fact).toBe(site.fact);
    expect(onlySignal(await runOn(sharedHosting, 'DOMAIN', 'other-box.dynv6.net')).fact).toBe('site:other-box.dynv6.net');
    const content = onlySignal(
      await runOn(sharedHosting, 'URL', 'https://ipfs.io/ipfs/QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG/login.html'),
    );
    expect(content.fact).toBeUndefined();
  });
});

describe('url_shape', () => {
  it.each([
    ['credentials before the host', 'https://paypal.com@evil.example/login', 'url_userinfo'],
    ['deep sub-domains', 'https://secure.login.account.verify.example.com/', 'url_deep_subdomains'],
    ["a brand's domain in another site's path", 'https://cheap-hosting.example/www.paypal.com/signin', 'url_brand_in_path'],
    ['a percent-encoded brand domain in the path', 'https://203.0.113.7/secure/paypal%2Ecom/update', 'url_brand_in_path'],
    ['a phishing kit in a folder named after the brand', 'https://hacked-blog.example/wp-content/paypal/login.php', 'url_brand_in_path'],
    ['a brand folder on an IP host', 'http://203.0.113.7/wellsfargo/index.html', 'url_brand_in_path'],
    ['a port of its own', 'https://www.example.com:8443/login', 'url_port'],
    ['a port of its own on plain HTTP', 'http://www.example.com:8080/', 'url_port'],
  ])('given %s, then it weakens as %s', async (_given, value, kind) => {
    expect((await runOn(urlShape, 'URL', value)).signals).toContainEqual(expect.objectContaining({ kind, disposition: 'weakens' }));
  });

  it('an ordinary address is neutral', async () => {
    expect(verdict(await runOn(urlShape, 'URL', 'https://www.example.com/a/b?c=1'))).toBe('neutral');
  });

  it.each([
    ['an address given without a scheme', 'www.example.com/a'],
    ['a host and port given without a scheme', 'www.example.com:443/a'],
    ['HTTPS on its default port written out', 'https://www.example.com:443/a'],
  ])('given %s, then no port of its own', async (_given, value) => {
    expect((await runOn(urlShape, 'URL', value)).signals.map((s) => s.kind)).not.toContain('url_port');
  });

  it('does not read the scheme: plain HTTP is how someone typed the address, not how the site is served', async () => {
    expect(verdict(await runOn(urlShape, 'URL', 'http://www.example.com/a/b?c=1'))).toBe('neutral');
  });

  it.each([
    [
      'a brand in the query (a return or tracking parameter)',
      'https://shop.example/login?next=https://www.paypal.com/&utm_source=facebook.com',
    ],
    ['the site naming itself in its path', 'https://www.paypal.com/paypal.com/help'],
    ['a well-known site naming another in its path', 'https://web.archive.org/web/2024/https://www.paypal.com/'],
    ['a file name with a dot', 'https://example.com/files/report.final.pdf'],
    ['a brand as the last part of a path (a tag or topic page)', 'https://blog.example/tag/paypal/'],
    ['a folder named after a brand named by a word', 'https://shop.example/chase/login'],
    ['a brand folder on a well-known site (an organisation on a code host)', 'https://github.com/paypal/paypal-checkout'],
  ])('given %s, then no brand-in-path', async (_given, value) => {
    expect((await runOn(urlShape, 'URL', value)).signals.map((s) => s.kind)).not.toContain('url_brand_in_path');
  });
});

describe('domain_lookalike over a popularity list an operator chose', () => {
  it("given a list that ranks a platform's tenant domain, then its tenants are not read as embedding the platform's brand", async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'tas-lookalike-')), 'ranked.csv');
    writeFileSync(path, '1,onmicrosoft.com\n');
    const withList = lookalikeCheck(await readPopularityList(path));
    const tenant = (await runOn(withList, 'EMAIL', 'farid.smith@contoso.onmicrosoft.com')).signals;
    expect(tenant.filter((signal) => signal.disposition === 'weakens')).toEqual([]);
    // The shipped list does not rank it: there, the brand in the name is read as before.
    const shipped = (await runOn(lookalike, 'EMAIL', 'farid.smith@contoso.onmicrosoft.com')).signals;
    expect(shipped.map((signal) => signal.kind)).toContain('brand_embedded');
  });
});
