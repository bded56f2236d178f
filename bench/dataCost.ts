import { performance } from 'node:perf_hooks';
import { discoverChecks } from '../src/checks/registry.js';

/**
 * `npm run bench:data`: what the checks' data packages cost at start-up, in
 * a fresh process: the time to discover and load every offline check (the
 * data sets load with their modules) and the resident memory it adds. The
 * budget is 150 MB and 2 s (issue 11); results go in bench/README.md.
 */
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const before = process.memoryUsage().rss;
const started = performance.now();
const checks = await discoverChecks({});
const ms = performance.now() - started;
gc?.();
const after = process.memoryUsage().rss;
console.log(JSON.stringify({ checks: checks.length, load_ms: Math.round(ms), added_rss_mb: Math.round((after - before) / 1024 / 1024) }));
