import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { discoverChecks } from '../src/checks/registry.js';
import { loadNetworks } from '../src/checks/ipNetworks.js';

/**
 * `npm run bench:data`: what the checks' data packages cost at start-up, in
 * a fresh process: the time to discover and load every offline check (the
 * data sets load with their modules) and the resident memory it adds, then
 * the IP network data that loads in the background after start-up. The
 * budget is 150 MB and 2 s (issue 11); results go in bench/README.md.
 * `--popularity FILE` loads that ranked list instead of the shipped one, as
 * `TAS_POPULARITY_LIST` would (the full Majestic Million, say).
 */
const popularityFile = parseArgs({ options: { popularity: { type: 'string' } } }).values.popularity;
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const before = process.memoryUsage().rss;
const started = performance.now();
const checks = await discoverChecks(popularityFile === undefined ? {} : { popularityFile });
const ms = performance.now() - started;
gc?.();
const afterDiscovery = process.memoryUsage().rss;
// The IP network data loads in the background after start-up; measured separately.
const networkStarted = performance.now();
await loadNetworks();
const networkMs = performance.now() - networkStarted;
gc?.();
const after = process.memoryUsage().rss;
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
console.log(
  JSON.stringify({
    checks: checks.length,
    startup_load_ms: Math.round(ms),
    startup_added_rss_mb: mb(afterDiscovery - before),
    background_network_load_ms: Math.round(networkMs),
    total_added_rss_mb: mb(after - before),
  }),
);
