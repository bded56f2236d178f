import type { Config } from '../platform/config.js';
import { OCR_INSTALL_HINT, probeOcr } from '../material/ocr.js';
import { startService } from '../root/service.js';
import { bannerKey, bannerText } from './banner.js';
import { printTenant } from './operator.js';

/** `tas serve`: runs until SIGINT/SIGTERM, then drains and closes. */
export async function serveCommand(config: Config, flags: Record<string, unknown>): Promise<number> {
  const ocr = probeOcr();
  const service = await startService(config, { edge: true, workers: flags['no-workers'] !== true, demoTenant: true });
  if (service.demo) printTenant('demo', service.demo.tenant_id, service.demo.keys);
  const token = service.demo?.keys.test ?? (config.NODE_ENV === 'production' ? null : await bannerKey(service.db, config));
  const key = token === null ? null : { token, expires: service.demo === null };
  const listening = `http://${config.HOST}:${service.port}`;
  console.log(`\n${bannerText(listening, config.TAS_PUBLIC_URL ?? listening, key, await ocr)}`);
  return waitForSignal((signal) => service.stop(signal));
}

export async function workerCommand(config: Config): Promise<number> {
  const service = await startService(config, { edge: false, workers: true });
  if ((await probeOcr()) === 'unavailable')
    console.log(`tas workers: text in images will not be extracted: tesseract with English data is missing; ${OCR_INSTALL_HINT}.`);
  console.log('tas workers running');
  return waitForSignal((signal) => service.stop(signal));
}

function waitForSignal(stop: (reason: string) => Promise<void>): Promise<number> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      void stop(signal).then(() => resolve(0));
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
