/**
 * Inquiry bodies with a distinct subject on every request (emails, phones,
 * domains, names all derived from a per-run seed and a counter), so neither
 * entity resolution nor any cache sees the same subject twice, and with varied
 * presentation mixes, intents, purposes and stakes.
 *
 * With `returning`, the subjects are a pool of that many, presented in turn:
 * after the first round every inquiry is about a known entity with a ledger
 * (the returning customer's path: its history, graph and identifiers are read).
 *
 * `worker` bodies carry exactly `emails` EMAIL presentations: with the bench's
 * providers file (one EMAIL provider) that is one worker check per email.
 */
const FIRST = ['jane', 'omar', 'li', 'ana', 'kofi', 'marta', 'raj', 'sven', 'aiko', 'tomas', 'nadia', 'felix'];
const LAST = ['doe', 'haddad', 'wei', 'silva', 'mensah', 'nowak', 'patel', 'berg', 'sato', 'novak', 'karim', 'weber'];
const FREE_MAIL = ['gmail.com', 'yahoo.com', 'outlook.com', 'proton.me', 'gmx.de'];
const TLDS = ['com', 'io', 'co.uk', 'de', 'net', 'shop'];
const INTENTS = ['pre_transaction', 'onboarding', 'listing_review', 'counterparty_check'];
const PURPOSES = ['fraud_prevention', 'account_security', 'credit_risk', 'marketplace_safety', 'trust_and_safety'];
const STAKES = [
  { kind: 'payment', currency: 'GBP' },
  { kind: 'account' },
  { kind: 'listing', currency: 'EUR' },
  { kind: 'credit', currency: 'USD' },
  { kind: 'hire' },
];
const COUNTRIES = ['GB', 'US', 'FR', 'DE'];

type Presentation = { type: string; value: string };

function digits(n: number, width: number): string {
  return String(n % 10 ** width).padStart(width, '0');
}

/**
 * A plausible number per country; the counter makes it distinct (until 10^7
 * requests): every digit of the counter's image reaches the number (7919 is
 * prime to the moduli, so n -> n * 7919 mod m is one-to-one below m).
 */
function phone(n: number, country: string): string {
  const d = digits(n * 7919, 7);
  switch (country) {
    case 'GB':
      return `+44 77${digits(n * 7919, 8)}`;
    case 'US': {
      const k = (n * 7919) % 8_000_000;
      return `+1 (212) ${200 + Math.floor(k / 10_000)}-${digits(k, 4)}`;
    }
    case 'FR':
      return `+33 6 ${d.slice(0, 2)} ${d.slice(2, 4)} ${d.slice(4, 6)} ${d.slice(6)}${n % 10}`;
    default:
      return `+49 30 ${d}${n % 10}`;
  }
}

export function bodyFactory(seed: string, opts: { worker: boolean; emails?: number; deadlineMs?: number; returning?: number }) {
  return (counter: number): Record<string, unknown> => {
    // Returning subjects: request n is about subject n mod the pool, so each comes back with its history.
    const n = opts.returning ? counter % opts.returning : counter;
    const first = FIRST[n % FIRST.length]!;
    const last = LAST[(n >> 3) % LAST.length]!;
    const country = COUNTRIES[(n >> 2) % COUNTRIES.length]!;
    const tld = TLDS[n % TLDS.length]!;
    const domain = `${last}-${seed}-${n.toString(36)}.${tld}`;
    const email = (i: number) => `${first}.${last}.${n.toString(36)}x${i}@${(n + i) % 3 === 0 ? FREE_MAIL[n % FREE_MAIL.length]! : domain}`;
    const name = `${first[0]!.toUpperCase()}${first.slice(1)} ${last[0]!.toUpperCase()}${last.slice(1)}`;
    let presentations: Presentation[];
    if (opts.worker) {
      presentations = Array.from({ length: opts.emails ?? 1 }, (_, i) => ({ type: 'EMAIL', value: email(i) }));
      if (n % 2 === 0) presentations.push({ type: 'PHONE', value: phone(n, country) });
    } else {
      switch (n % 5) {
        case 0:
          presentations = [
            { type: 'EMAIL', value: email(0) },
            { type: 'PHONE', value: phone(n, country) },
          ];
          break;
        case 1:
          presentations = [
            { type: 'EMAIL', value: email(0) },
            { type: 'DOMAIN', value: domain },
            { type: 'NAME', value: name },
          ];
          break;
        case 2:
          presentations = [
            { type: 'PHONE', value: phone(n, country) },
            { type: 'NAME', value: name },
          ];
          break;
        case 3:
          presentations = [
            { type: 'URL', value: `https://www.${domain}/shop/${n}` },
            { type: 'EMAIL', value: email(0) },
            { type: 'IP', value: `203.0.${(n >> 8) % 256}.${n % 256}` },
          ];
          break;
        default:
          presentations = [
            { type: 'EMAIL', value: email(0) },
            { type: 'PHONE', value: phone(n, country) },
            { type: 'DOMAIN', value: domain },
            { type: 'ACCOUNT', value: `@${first}${n}` },
          ];
      }
    }
    const stake = STAKES[n % STAKES.length]!;
    return {
      subject: { presentations, ...(n % 3 !== 2 ? { claim: { country, name } } : {}) },
      intent: opts.worker ? 'pre_transaction' : INTENTS[n % INTENTS.length]!,
      purpose: PURPOSES[(n >> 1) % PURPOSES.length]!,
      stake: {
        ...stake,
        ...(stake.currency ? { amount: 10 + (n % 5000) } : {}),
        ...(opts.deadlineMs ? { deadline_ms: opts.deadlineMs } : {}),
      },
    };
  };
}
