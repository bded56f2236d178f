import type { Config } from '../config.js';
import { startService } from '../root/service.js';
import { printTenant } from './operator.js';

/** `tas serve`: runs until SIGINT/SIGTERM, then drains and closes. */
export async function serveCommand(config: Config, flags: Record<string, unknown>): Promise<number> {
  const service = await startService(config, { edge: true, workers: flags['no-workers'] !== true, demoTenant: true });
  if (service.demo) {
    printTenant('demo', service.demo.tenant_id, service.demo.keys);
    console.log(`\nTry it:\n  curl -s http://${config.HOST}:${service.port}/v1/health -H "Authorization: Bearer ${service.demo.keys.test}"`);
    console.log(`API reference: http://${config.HOST}:${service.port}/docs\n`);
  }
  console.log(`tas listening on http://${config.HOST}:${service.port}`);
  return waitForSignal(service.stop);
}

export async function workerCommand(config: Config): Promise<number> {
  const service = await startService(config, { edge: false, workers: true });
  console.log('tas workers running');
  return waitForSignal(service.stop);
}

function waitForSignal(stop: () => Promise<void>): Promise<number> {
  return new Promise((resolve) => {
    const onSignal = async () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await stop();
      resolve(0);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
