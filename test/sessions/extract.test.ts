import { describe, expect, it } from 'vitest';
import { createDeriver } from '../../src/sessions/derive.js';
import { extractIdentifiers } from '../../src/checks/extractIdentifiers.js';
import { parseFrame } from '../../src/sessions/frames.js';

/** Identifiers in free text, the derivation boundary of transient sessions, and frame parsing: pure, table-driven. */
const found = (line: string, opts: Parameters<typeof extractIdentifiers>[1] = {}) =>
  extractIdentifiers(line, opts).map((e) => [e.presentation.type, line.slice(e.start, e.end), e.presentation.normalised]);

describe('extractIdentifiers', () => {
  it.each<[string, string, string[][]]>([
    [
      'an email and a phone',
      "I'm Jane.Doe@Example.com, call +44 20 7946 0958.",
      [
        ['EMAIL', 'Jane.Doe@Example.com', 'jane.doe@example.com'],
        ['PHONE', '+44 20 7946 0958', '+442079460958'],
      ],
    ],
    [
      'a URL ending a sentence, and the domain inside it read once',
      'See https://shop.example.co.uk/item?id=3.',
      [['URL', 'https://shop.example.co.uk/item?id=3', 'https://shop.example.co.uk/item?id=3']],
    ],
    [
      'IPv4 and IPv6 addresses',
      'from 203.0.113.9 and 2001:db8::1 today',
      [
        ['IP', '203.0.113.9', '203.0.113.9'],
        ['IP', '2001:db8::1', '2001:db8::1'],
      ],
    ],
    [
      'a bare domain under a public suffix, not file names or abbreviations',
      'visit WWW.Paypa1.com, not file.txt or e.g. node.js',
      [['DOMAIN', 'WWW.Paypa1.com', 'paypa1.com']],
    ],
    ['not an IP when out of range', 'version 10.0.0.256 here', []],
    ['an IP ending a sentence', 'The login came from 203.0.113.9.', [['IP', '203.0.113.9', '203.0.113.9']]],
    [
      'an IBAN as printed, not read as a phone number',
      'Pay to GB82 WEST 1234 5698 7654 32 today',
      [['IBAN', 'GB82 WEST 1234 5698 7654 32', 'GB82WEST12345698765432']],
    ],
    ['not an IBAN when its check digits fail', 'ref GB82 WEST 1234 5698 7654 33 only', []],
    [
      'Bitcoin and Ethereum addresses',
      'send to bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq or 0x52908400098527886E0F7030069857D2E4169EE7',
      [
        ['CRYPTO_ADDRESS', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
        ['CRYPTO_ADDRESS', '0x52908400098527886E0F7030069857D2E4169EE7', '0x52908400098527886e0f7030069857d2e4169ee7'],
      ],
    ],
    ['not a Bitcoin address when its checksum fails', 'wallet 1BoatSLRHtKNngkdXEeobR76b53LETtpyX here', []],
    ['not an IP inside a longer dotted number', 'build 1.2.3.4.5 shipped', []],
    ['nothing at all', 'just words, nothing to see', []],
  ])('%s', (_name, line, want) => {
    expect(found(line)).toEqual(want);
  });

  it('reads a national number against the claimed country', () => {
    expect(found('ring 020 7946 0958', { defaultCountry: 'GB' })).toEqual([['PHONE', '020 7946 0958', '+442079460958']]);
  });

  it('skips types the tenant was not granted, without reading the domain inside an ungranted URL', () => {
    expect(found('https://example.com/x and a@example.org', { allowedTypes: new Set(['EMAIL']) })).toEqual([
      ['EMAIL', 'a@example.org', 'a@example.org'],
    ]);
  });

  it('keeps offsets in UTF-16 code units, as a browser slices', () => {
    const line = '📞☎ write to zoe@example.com';
    const [e] = extractIdentifiers(line);
    // The emoji is two code units, the telephone sign one.
    expect([e!.start, e!.end]).toEqual([13, 28]);
    expect(line.slice(e!.start, e!.end)).toBe('zoe@example.com');
  });
});

describe('the derivation boundary', () => {
  const keys = { pepper: 'p'.repeat(32), tenantId: 't1' };

  it('standard: presented values as given, normalised beside them', () => {
    const d = createDeriver('standard', keys);
    expect(d.presentations([{ type: 'EMAIL', value: 'Jane@Example.com' }], undefined)).toEqual([
      { type: 'EMAIL', value: 'Jane@Example.com', normalised: 'jane@example.com' },
    ]);
    expect(d.claim({ name: 'Jane', country: 'GB' })).toEqual({ name: 'Jane', country: 'GB' });
  });

  it('transient: identifiers keep their normalised form only; names and non-identifiers become keyed pseudonyms', () => {
    const d = createDeriver('transient', keys);
    const out = d.presentations(
      [
        { type: 'EMAIL', value: 'Jane@Example.com' },
        { type: 'PHONE', value: '020 7946 0958' },
        { type: 'NAME', value: 'Jane Doe' },
        { type: 'EMAIL', value: 'a sentence, not an address' },
        { type: 'ACCOUNT', value: '  @jane  ' },
      ],
      'GB',
    );
    expect(out.slice(0, 2)).toEqual([
      { type: 'EMAIL', value: 'jane@example.com', normalised: 'jane@example.com' },
      { type: 'PHONE', value: '+442079460958', normalised: '+442079460958' },
    ]);
    expect(out[2]!.value).toMatch(/^pseudonym:[0-9a-f]{32}$/);
    expect(out[3]!.value).toMatch(/^pseudonym:[0-9a-f]{32}$/);
    expect(out[4]).toEqual({ type: 'ACCOUNT', value: '@jane', normalised: '@jane' });
    // Stable within a tenant, different across tenants.
    expect(d.presentations([{ type: 'NAME', value: 'Jane Doe' }], undefined)[0]!.value).toBe(out[2]!.value);
    expect(
      createDeriver('transient', { ...keys, tenantId: 't2' }).presentations([{ type: 'NAME', value: 'Jane Doe' }], undefined)[0]!.value,
    ).not.toBe(out[2]!.value);
  });

  it('transient: a claim keeps its country and normalised contact points, never a name or organisation', () => {
    const d = createDeriver('transient', keys);
    expect(
      d.claim({
        name: 'Jane Doe',
        organisation: 'Doe Ltd',
        country: 'GB',
        email: 'Jane@Example.com',
        phone: '020 7946 0958',
        website: 'Example.com',
      }),
    ).toEqual({ country: 'GB', email: 'jane@example.com', phone: '+442079460958', website: 'https://example.com/' });
  });
});

describe('parseFrame', () => {
  const bytes = (s: string) => new TextEncoder().encode(s);

  it('hashes every frame, refused or not, and keeps only our own type names', () => {
    const ok = parseFrame(1, bytes('{"type":"text","line":"hi"}'), false);
    expect(ok).toMatchObject({
      ok: true,
      meta: { seq: 1, type: 'text', sizeBytes: 27, contentSha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    const unknown = parseFrame(2, bytes('{"type":"secret-stuff"}'), false);
    expect(unknown).toMatchObject({ ok: false, meta: { type: 'unknown' }, refusal: { rule: 'frame_type', field: 'type' } });
  });

  it('never quotes the input in a refusal (V8 JSON errors would)', () => {
    const bad = parseFrame(1, bytes('{"type":"text","line":"SECRET'), false);
    expect(bad.ok).toBe(false);
    expect(JSON.stringify(bad)).not.toContain('SECRET');
  });
});
