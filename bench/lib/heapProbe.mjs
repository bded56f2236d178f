// Preloaded into a service a bench spawns (NODE_OPTIONS="--expose-gc --import
// <file URL of bench/lib/heapProbe.mjs>", TAS_BENCH_HEAP_FILE set): on SIGUSR2 the process
// collects its garbage twice and writes its memory, in bytes, to that file.
// Resident memory rarely shrinks once grown, so only the heap left after a
// forced collection says whether a queue or buffer kept what it held.
import { writeFileSync } from 'node:fs';

const file = process.env.TAS_BENCH_HEAP_FILE;
if (file && typeof globalThis.gc === 'function') {
  process.on('SIGUSR2', () => {
    globalThis.gc();
    globalThis.gc();
    const { heapUsed, external, arrayBuffers, rss } = process.memoryUsage();
    writeFileSync(file, JSON.stringify({ pid: process.pid, heapUsed, external, arrayBuffers, rss }));
  });
}
