import { parseArgs } from 'node:util';

/**
 * One inquiry at a time against a service already running (`npm start`),
 * as a newcomer's first calls are: the latency a single caller sees with the
 * deployment's own settings (network checks on), not the bench's.
 *
 *   npx tsx bench/sequential.ts --key tas_test_... [--n 100] [--base http://127.0.0.1:8080] [--tier t1] [--amount 50]
 *
 * Every subject is new (a .com email and domain with a per-run stamp), so
 * nothing is answered from a cache or an earlier entity.
 */
const { values: args } = parseArgs({
  options: {
    key: { type: 'string' },
    n: { type: 'string', default: '100' },
    base: { type: 'string', default: 'http://127.0.0.1:8080' },
    tier: { type: 'string' },
    amount: { type: 'string', default: '50' },
  },
});
if (!args.key) {
  console.error('usage: npx tsx bench/sequential.ts --key KEY [--n N] [--base URL] [--tier t0|t1|t2] [--amount A]');
  process.exit(2);
}

function body(i: number, stamp: string) {
  return {
    subject: {
      presentations: [
        { type: 'EMAIL', value: `p${i}.${stamp}@shop-${stamp}-${i}.com` },
        { type: 'DOMAIN', value: `shopq-${stamp}-${i}.com` },
      ],
    },
    intent: 'pre_transaction',
    purpose: 'fraud_prevention',
    stake: { kind: 'payment', amount: Number(args.amount), currency: 'GBP' },
    ...(args.tier ? { tier_ceiling: args.tier } : {}),
  };
}

async function main() {
  const n = Number(args.n);
  const stamp = Date.now().toString(36);
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  for (let i = 0; i < n; i += 1) {
    const started = performance.now();
    const res = await fetch(`${args.base}/v1/inquiries`, {
      method: 'POST',
      headers: { authorization: `Bearer ${args.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body(i, stamp)),
    });
    const answer = (await res.json()) as { status?: string };
    times.push(performance.now() - started);
    const key = `${res.status} ${answer.status ?? ''}`.trim();
    statuses[key] = (statuses[key] ?? 0) + 1;
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => Number(times[Math.min(n - 1, Math.floor(n * q))]!.toFixed(1));
  console.log(JSON.stringify({ n, p50_ms: at(0.5), p95_ms: at(0.95), max_ms: at(1), statuses }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
