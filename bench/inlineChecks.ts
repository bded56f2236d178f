import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { discoverChecks } from '../src/checks/registry.js';
import { loadNetworks } from '../src/checks/ipNetworks.js';
import { normalisePresented } from '../src/checks/normalise.js';
import { planChecks } from '../src/assessment/plan.js';
import { runInline } from '../src/assessment/evaluate.js';
import { bodyFactory } from './lib/bodies.js';

/**
 * `npm run bench:checks`: the service time of an inquiry's inline checks
 * alone, in one process, no I/O: the bench's own inquiry bodies (the mix
 * `npm run bench` posts), planned at tier t0 as the engine plans them and
 * run through `runInline`, as the engine runs them. Prints microseconds per
 * inquiry (median of batches) and per check run. Far steadier than the
 * service's CPU per request under load, so a change to how checks run is
 * judged here first (issue 15).
 */
const args = parseArgs({ options: { inquiries: { type: 'string' }, batches: { type: 'string' } } }).values;
const PER_BATCH = Number(args.inquiries ?? 2000);
const BATCHES = Number(args.batches ?? 7);

const checks = await discoverChecks({});
await loadNetworks();
const body = bodyFactory('checks', { worker: false });
const stake = { kind: 'payment' as const, amount: 50, currency: 'GBP' };
// Each batch asks about subjects of its own, as the service meets them: a host the checks keep an
// answer for (src/checks/hostMemo.ts) comes back only where the mix repeats it (the free-mail
// providers), never because the bench asked the same subjects again.
const plansOf = (batchNo: number) =>
  Array.from({ length: PER_BATCH }, (_, i) => {
    const n = batchNo * PER_BATCH + i;
    const b = body(n) as { subject: { presentations: { type: string; value: string }[]; claim?: { country?: string } } };
    const presentations = normalisePresented(b.subject.presentations, b.subject.claim?.country);
    return { presentations, plan: planChecks({ inquiryId: `inq-${n}`, checks, presentations, tierCeiling: 't0', stake }) };
  });
const batches = Array.from({ length: BATCHES + 1 }, (_, i) => plansOf(i));
const checkRuns = batches[1]!.reduce((sum, p) => sum + p.plan.inline.length, 0);
const now = new Date();

async function batch(plans: ReturnType<typeof plansOf>): Promise<number> {
  const started = performance.now();
  for (const { presentations, plan } of plans) await runInline(plan, { presentations, claim: undefined }, {}, now);
  return performance.now() - started;
}

await batch(batches[0]!); // warm-up: JIT and the data structures' first touches
const times: number[] = [];
for (let i = 1; i <= BATCHES; i += 1) times.push(await batch(batches[i]!));
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)]!;
console.log(
  JSON.stringify({
    inquiries_per_batch: PER_BATCH,
    batches: BATCHES,
    checks_per_inquiry: Math.round((checkRuns / PER_BATCH) * 10) / 10,
    us_per_inquiry_median: Math.round((median / PER_BATCH) * 1000 * 10) / 10,
    us_per_inquiry_min: Math.round((times[0]! / PER_BATCH) * 1000 * 10) / 10,
    us_per_check_run: Math.round((median / checkRuns) * 1000 * 100) / 100,
  }),
);
