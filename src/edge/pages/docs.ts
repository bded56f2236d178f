import { readFile } from 'node:fs/promises';
import type { Handler } from '../handler.js';
import { ServiceProblem } from '../../platform/problems.js';
import { docsAssetPath, renderDocsPage } from '../../openapi/docsPage.js';

/** /openapi.json, /docs and the reference page's own static assets (served by us: no CDN). */
export function createOpenApiHandler(documentJson: string): Handler {
  return () =>
    Promise.resolve({ status: 200, raw: documentJson, contentType: 'application/json', headers: { 'Cache-Control': 'no-cache' } });
}

export function createDocsHandler(): Handler {
  const page = renderDocsPage('/openapi.json');
  return () => Promise.resolve({ status: 200, raw: page, contentType: 'text/html; charset=utf-8' });
}

const ASSET_TYPES: Record<string, string> = { css: 'text/css', js: 'application/javascript', png: 'image/png' };
const assetCache = new Map<string, Buffer>();

/** GET /docs/assets/{name}: only the named files of the reference page, never a path the caller builds. */
export function createDocsAssetHandler(): Handler {
  return async (ctx) => {
    const name = ctx.params.name ?? '';
    const path = docsAssetPath(name);
    if (!path) throw new ServiceProblem('not-found', 'No such asset.');
    let data = assetCache.get(path);
    if (!data) {
      data = await readFile(path);
      assetCache.set(path, data);
    }
    const ext = name.split('.').pop() ?? '';
    return {
      status: 200,
      raw: data,
      contentType: ASSET_TYPES[ext] ?? 'application/octet-stream',
      headers: { 'Cache-Control': 'public, max-age=86400' },
    };
  };
}
