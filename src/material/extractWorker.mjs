// The worker thread that extracts identifiers from large text material, off
// the service's event loop (src/material/extractOffLoop.ts). Plain JavaScript,
// because a worker starts without the parent's TypeScript loader: it installs
// tsx's loader itself, then imports the same extractor the service uses inline.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { extractFromText } = await import('./extractText.ts');

parentPort.on('message', ({ id, text, opts }) => {
  try {
    parentPort.postMessage({ id, found: extractFromText(text, opts) });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error?.message ?? error) });
  }
});
