import { rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFixtureProvidersFile } from '../../scripts/lib/fixtureProvider.js';

/**
 * A loopback HTTP provider for the fixture provider of scripts/lib/fixtureProvider.ts
 * answering `{"risk":"low"}`. In `immediate` mode it answers at once; in
 * `hold` mode it keeps every request until `releaseEvery` lets them go one at
 * a time, which is how the SSE scenario decides when events are committed.
 */
export interface Provider {
  url: string;
  calls: number;
  held(): number;
  hold(): void;
  /** Releases one held request every `intervalMs` (and answers later arrivals in turn) until `stop`. */
  releaseEvery(intervalMs: number): void;
  close(): Promise<void>;
}

const ANSWER = JSON.stringify({ risk: 'low' });

export async function startProvider(): Promise<Provider> {
  const queue: ServerResponse[] = [];
  let holding = false;
  let pacer: NodeJS.Timeout | null = null;
  const answer = (res: ServerResponse) => {
    if (res.destroyed) return;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(ANSWER) });
    res.end(ANSWER);
  };
  const server = createServer((req, res) => {
    provider.calls += 1;
    req.resume();
    if (holding) queue.push(res);
    else answer(res);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const provider: Provider = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls: 0,
    held: () => queue.length,
    hold() {
      holding = true;
    },
    releaseEvery(intervalMs) {
      pacer = setInterval(() => {
        const res = queue.shift();
        if (res) answer(res);
      }, intervalMs);
    },
    close() {
      if (pacer) clearInterval(pacer);
      for (const res of queue.splice(0)) answer(res);
      return new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      });
    },
  };
  return provider;
}

/** A providers file with one EMAIL provider at `url` (removed by the returned cleanup). */
export function providersFile(url: string, timeoutMs: number): { path: string; remove(): void } {
  const path = writeFixtureProvidersFile('tas-bench-providers', url, 'bench_reputation', timeoutMs);
  return { path, remove: () => rmSync(path, { force: true }) };
}
