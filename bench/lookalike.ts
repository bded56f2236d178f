import { resemblance } from '../src/checks/domainLookalikeCheck.js';
import { viewHost } from '../src/checks/hosts.js';

/**
 * The look-alike check's cost per host, alone: `resemblance(viewHost(host))`
 * over 40,000 hosts no memo has seen, half shaped like the inquiry bench's
 * domains (`haddad-<seed>-1x.co.uk`, bench/lib/bodies.ts), half ordinary
 * business names with a few imitations among them. Prints microseconds per
 * host, the mean of three passes after two warm-up passes.
 *
 * Usage: npx tsx bench/lookalike.ts
 */
const LAST = ['doe', 'haddad', 'wei', 'silva', 'mensah', 'nowak', 'patel', 'berg', 'sato', 'novak', 'karim', 'weber'];
const TLDS = ['com', 'io', 'co.uk', 'de', 'net', 'shop'];
const NAMES = [
  'northwind',
  'bluebirdbakery',
  'acme-widgets',
  'smithandsons',
  'greenleafgarden',
  'riverside-dental',
  'paypal-login',
  'amaz0nsecurity',
  'myetherwalletd',
  'gooogle',
];
const PASSES = 3;

function hosts(): string[] {
  const out: string[] = [];
  for (let n = 0; n < 20_000; n += 1) out.push(`${LAST[(n >> 3) % LAST.length]}-a1b2c3d4-${n.toString(36)}.${TLDS[n % TLDS.length]}`);
  for (let n = 0; n < 20_000; n += 1) out.push(`${NAMES[n % NAMES.length]}${n % 7 === 0 ? '' : n.toString(36)}.com`);
  return out;
}

function pass(list: readonly string[]): number {
  let found = 0;
  for (const host of list) if (resemblance(viewHost(host)) !== null) found += 1;
  return found;
}

const list = hosts();
pass(list);
pass(list);
const started = process.hrtime.bigint();
let found = 0;
for (let i = 0; i < PASSES; i += 1) found = pass(list);
const micros = Number(process.hrtime.bigint() - started) / 1e3 / (PASSES * list.length);
console.log(JSON.stringify({ bench: 'lookalike', hosts: list.length, resembling: found, us_per_host: Number(micros.toFixed(2)) }));
