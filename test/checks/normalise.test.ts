import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalisePresentation } from '../../src/checks/normalise.js';

describe('normalisePresentation', () => {
  it.each([
    ['EMAIL', '  Jane.Doe@Example.COM ', 'jane.doe@example.com'],
    ['EMAIL', 'not an email', 'not an email'],
    ['EMAIL', '   ', null],
    ['PHONE', '+44 (0)20 7946 0018', '+442079460018'],
    ['PHONE', '+1 415-555-2671', '+14155552671'],
    ['PHONE', '0044 7400 123456', '+447400123456'],
    ['PHONE', 'no digits here', null],
    ['DOMAIN', 'WWW.Example.CO.UK.', 'example.co.uk'],
    ['DOMAIN', 'bücher.de', 'xn--bcher-kva.de'],
    ['DOMAIN', 'co.uk', null],
    ['DOMAIN', 'https://Shop.Example.com/cart', 'example.com'],
    ['DOMAIN', '*.example.org', 'example.org'],
    ['DOMAIN', '192.0.2.1', null],
    ['URL', 'HTTPS://Example.COM:443/a/b?x=1#frag', 'https://example.com/a/b?x=1'],
    ['URL', 'example.com/path', 'https://example.com/path'],
    ['URL', 'http://bücher.de', 'http://xn--bcher-kva.de/'],
    ['URL', 'ftp://example.com/file', null],
    ['URL', 'javascript:alert(1)', null],
    ['IP', ' 192.0.2.1 ', '192.0.2.1'],
    ['IP', '2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['IP', '[::FFFF:10.0.0.1]', '::ffff:a00:1'],
    ['IP', '010.0.0.1', null],
    ['IP', 'fe80::1%eth0', null],
    ['NAME', '  Zoe\u0308   van  der\tBerg ', 'Zoë van der Berg'],
    ['ACCOUNT', '  acct-42 ', 'acct-42'],
    ['TENANT_TYPE', '  kept as is ', 'kept as is'],
  ])('given %s %j, then %j', (type, value, expected) => {
    const result = normalisePresentation(type, value);
    expect(result?.normalised ?? null).toBe(expected);
    if (result) expect(result).toEqual({ type, value, normalised: expected });
  });

  it('reads national phone numbers in the default country', () => {
    expect(normalisePresentation('PHONE', '020 7946 0018', { defaultCountry: 'gb' })?.normalised).toBe('+442079460018');
    expect(normalisePresentation('PHONE', '020 7946 0018')).toBeNull();
  });

  it('strips every trailing dot of a URL host, so normalising twice changes nothing (found by the property below)', () => {
    expect(normalisePresentation('URL', 'A..')?.normalised).toBe('https://a/');
    expect(normalisePresentation('URL', 'https://a../x')?.normalised).toBe('https://a/x');
  });

  it.each(['EMAIL', 'PHONE', 'DOMAIN', 'URL', 'IP', 'NAME', 'ACCOUNT'])('is idempotent for %s', (type) => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.emailAddress(), fc.domain(), fc.webUrl(), fc.ipV4(), fc.ipV6()), (value) => {
        const once = normalisePresentation(type, value);
        if (once === null) return;
        expect(normalisePresentation(type, once.normalised)?.normalised).toBe(once.normalised);
      }),
    );
  });
});
