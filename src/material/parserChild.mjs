// The parser process (src/material/parserProcess.ts): reads one request from
// stdin (a 4-byte length, a JSON header, then the file's bytes), parses the
// bytes with the extractors, writes one JSON reply on file descriptor 3 and
// exits. Its environment holds nothing of the service's; its limits are set
// by the shell that starts it. Plain JavaScript, because node starts it
// without the service's TypeScript loader: it installs tsx's loader itself.
import { createWriteStream } from 'node:fs';
import { register } from 'tsx/esm/api';

// The input may not exceed this (parserProcess.ts checks it first; a child checks it again).
const MAX_INPUT_BYTES = 80 * 1024 * 1024;
const MAX_HEADER_BYTES = 64 * 1024;

// Libraries' warnings (pdf.js prints some) go nowhere: the reply has its own channel.
for (const name of ['log', 'info', 'warn', 'error', 'debug']) console[name] = () => undefined;

function reply(message) {
  return new Promise((resolve) => createWriteStream(null, { fd: 3 }).end(JSON.stringify(message), resolve));
}

async function readRequest() {
  const chunks = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += chunk.length;
    if (size > 4 + MAX_HEADER_BYTES + MAX_INPUT_BYTES) process.exit(2);
    chunks.push(chunk);
  }
  const all = Buffer.concat(chunks);
  const headerLength = all.length >= 4 ? all.readUInt32BE(0) : -1;
  if (headerLength < 0 || headerLength > MAX_HEADER_BYTES || 4 + headerLength > all.length) process.exit(2);
  const header = JSON.parse(all.toString('utf8', 4, 4 + headerLength));
  const bytes = all.subarray(4 + headerLength);
  if (bytes.length !== header.size) process.exit(2);
  return { header, bytes };
}

function allocateWithoutBound() {
  const held = [];
  for (;;) {
    held.push(new Array(1 << 16).fill(held.length + 0.5));
    held.push(Buffer.alloc(1 << 20, 1));
  }
}

const { header, bytes } = await readRequest();
if (header.kind === 'probe') {
  if (header.allocate) allocateWithoutBound();
  await reply({ probe: { envKeys: Object.keys(process.env), uid: process.getuid(), pid: process.pid } });
} else {
  register();
  const { extractFromBytes } = await import('./extractBytes.ts');
  const { ExtractionFailure } = await import('./extractors/types.ts');
  const { MAX_ITEMS_PER_MATERIAL } = await import('./extractText.ts');
  try {
    const found = await extractFromBytes(header.family, bytes, header.opts, header.mediaType);
    await reply({ found: found.slice(0, MAX_ITEMS_PER_MATERIAL) });
  } catch (error) {
    if (error instanceof ExtractionFailure) await reply({ failure: error.reason });
    else if (/allocation failed|out of memory/i.test(String(error?.message))) await reply({ failure: 'too_large' });
    else await reply({ error: String(error?.message ?? error).slice(0, 500) });
  }
}
// Whatever a library left running (OCR's thread, a timer), the answer is given.
process.exit(0);
