// The thread one extraction of material bytes runs in (src/material/extractBytesOffLoop.ts).
// Plain JavaScript, because a worker starts without the parent's TypeScript
// loader: it installs tsx's loader itself, extracts once and answers.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { extractFromBytes } = await import('./extractBytes.ts');
const { ExtractionFailure } = await import('./extractors/types.ts');

const { family, bytes, opts, mediaType } = workerData;
try {
  const found = await extractFromBytes(family, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), opts, mediaType);
  parentPort.postMessage({ found });
} catch (error) {
  if (error instanceof ExtractionFailure) parentPort.postMessage({ failure: error.reason });
  else parentPort.postMessage({ error: String(error?.message ?? error) });
}
