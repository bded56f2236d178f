/**
 * POST /v1/inquiries, fast tier, under autocannon: the tool most Node
 * services are measured with, so our figures can be set beside theirs.
 * autocannon reports whole milliseconds and no p95 (it gives p90 and p97.5);
 * `npm run bench` measures every request's latency itself for the targets.
 *
 *   npx tsx bench/autocannonInquiry.ts [--duration 20] [--connections 32]
 *
 * A fresh service on its own database (as every bench scenario), a new subject
 * per request so nothing is cached, full persistence.
 */
import autocannon from 'autocannon';
import { parseArgs } from 'node:util';
import { bodyFactory } from './lib/bodies.js';
import { cleanupAll, installExitHandlers } from './lib/children.js';
import { preflight, startService } from './lib/service.js';

async function main(): Promise<number> {
  installExitHandlers();
  const { values } = parseArgs({
    options: { duration: { type: 'string', default: '20' }, connections: { type: 'string', default: '32' } },
  });
  await preflight();
  const service = await startService();
  try {
    const body = bodyFactory('ac', { worker: false });
    let n = 0;
    const result = await autocannon({
      url: `http://127.0.0.1:${service.port}/v1/inquiries`,
      method: 'POST',
      connections: Number(values.connections),
      duration: Number(values.duration),
      headers: { authorization: `Bearer ${service.keys.live}`, 'content-type': 'application/json' },
      requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify(body((n += 1))) }) }],
    });
    const line = {
      scenario: 'inquiry (autocannon)',
      connections: result.connections,
      duration_s: result.duration,
      requests: result.requests.total,
      rps: result.requests.average,
      latency_ms: {
        p50: result.latency.p50,
        p90: result.latency.p90,
        p97_5: result.latency.p97_5,
        p99: result.latency.p99,
        max: result.latency.max,
      },
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
    };
    console.log(JSON.stringify(line));
    return line.errors > 0 || line.non2xx > 0 ? 1 : 0;
  } finally {
    await service.stop();
    await cleanupAll();
  }
}

process.exitCode = await main();
