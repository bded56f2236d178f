import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Handler } from '../handler.js';
import type { OperationSpec } from '../../schemas/operation.js';
import { ServiceProblem } from '../../platform/problems.js';

/**
 * The investigator's console (issue 17): static files from `console/`, and
 * Cytoscape.js from its own package, served by the service itself. Not part
 * of the API contract (like the reference page's assets): every call the
 * page makes goes through the public API with the key the page holds in
 * memory. Only the named files are served, never a path the caller builds.
 */
const require = createRequire(import.meta.url);
const CONSOLE_DIR = fileURLToPath(new URL('../../../console/', import.meta.url));

const ASSETS: Readonly<Record<string, () => string>> = {
  'app.js': () => `${CONSOLE_DIR}app.js`,
  'api.js': () => `${CONSOLE_DIR}api.js`,
  'graph.js': () => `${CONSOLE_DIR}graph.js`,
  'render.js': () => `${CONSOLE_DIR}render.js`,
  'stream.js': () => `${CONSOLE_DIR}stream.js`,
  'timeline.js': () => `${CONSOLE_DIR}timeline.js`,
  'console.css': () => `${CONSOLE_DIR}console.css`,
  'cytoscape.min.js': () => require.resolve('cytoscape/dist/cytoscape.min.js'),
};

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  html: 'text/html; charset=utf-8',
};

/**
 * No inline script or style, nothing from another origin, no framing, no
 * form posts: the page's only code is the files above, and its only
 * connections are to this API.
 */
export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-cache',
};

const cache = new Map<string, Buffer>();

async function load(path: string): Promise<Buffer> {
  let data = cache.get(path);
  if (!data) {
    data = await readFile(path);
    cache.set(path, data);
  }
  return data;
}

export function createConsolePageHandler(): Handler {
  return async () => ({
    status: 200,
    raw: await load(`${CONSOLE_DIR}index.html`),
    contentType: TYPES.html!,
    headers: { ...CONSOLE_HEADERS },
  });
}

export function createConsoleAssetHandler(): Handler {
  return async (ctx) => {
    const name = ctx.params.name ?? '';
    const resolve = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!resolve) throw new ServiceProblem('not-found', 'No such asset.');
    const ext = name.split('.').pop() ?? '';
    return {
      status: 200,
      raw: await load(resolve()),
      contentType: TYPES[ext] ?? 'application/octet-stream',
      headers: { ...CONSOLE_HEADERS },
    };
  };
}

const consoleOp = (operationId: string, path: string, summary: string, params?: OperationSpec['params']): OperationSpec => ({
  operationId,
  method: 'get',
  path,
  tag: 'meta',
  summary,
  auth: 'open',
  ...(params ? { params } : {}),
  success: { status: 200, description: summary },
  validation: false,
});

// Served and audited like every call, but outside the contract (not in the OpenAPI document).
export const CONSOLE_PAGE_OP = consoleOp('getConsole', '/console', "The investigator's console");
export const CONSOLE_ASSET_OP = consoleOp('getConsoleAsset', '/console/assets/{name}', "Static file of the investigator's console", {
  name: 'string',
});
