/**
 * Writes docs/openapi.json: the document the service serves at
 * /openapi.json, built from the same operation list and zod schemas, with the
 * built-in checks' catalogue (a deployment's own HTTP providers add rows to
 * its served copy) and the build named `docs`. Byte-stable: the same code
 * writes the same bytes. `test/openapi/checkedIn.test.ts` fails when the code
 * and this file differ; run `npm run docs:openapi` and commit the file.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { checkedInDocument } from '../src/openapi/checkedIn.js';

const target = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));
await writeFile(target, await checkedInDocument());
process.stdout.write(`wrote ${target}\n`);
