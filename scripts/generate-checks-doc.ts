/**
 * Writes docs/checks.md from the checks' own declarations
 * (src/checks/catalogue.ts). Run after adding or changing a check:
 *   npm run docs:checks
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { builtInCatalogue, renderCatalogueMarkdown } from '../src/checks/catalogue.js';

const target = fileURLToPath(new URL('../docs/checks.md', import.meta.url));
await writeFile(target, renderCatalogueMarkdown(await builtInCatalogue()));
process.stdout.write(`wrote ${target}\n`);
