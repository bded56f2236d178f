import { createRequire } from 'node:module';

/**
 * The browsable reference page at /docs. Swagger UI is served from our own
 * copy of `swagger-ui-dist` under /docs/assets/: the page must work on a
 * machine with no network, and a CDN would see every reader of our docs.
 */

export const DOCS_ASSET_PREFIX = '/docs/assets/';

/**
 * The only files /docs/assets/ will serve. A caller names one of these; it
 * never supplies a path, so there is nothing to traverse.
 */
const ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js'] as const;

const require = createRequire(import.meta.url);

/** Absolute path of an allowed asset inside swagger-ui-dist, or null for any other name. */
export function docsAssetPath(name: string): string | null {
  if (!(ASSETS as readonly string[]).includes(name)) return null;
  try {
    return require.resolve(`swagger-ui-dist/${name}`);
  } catch {
    return null;
  }
}

/** JSON inside an inline <script>: `<` escaped so no value can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function renderDocsPage(specUrl: string): string {
  const asset = (name: (typeof ASSETS)[number]): string => escapeHtml(DOCS_ASSET_PREFIX + name);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trust Assessment Service API reference</title>
<link rel="stylesheet" href="${asset('swagger-ui.css')}">
<style>body { margin: 0; }</style>
</head>
<body>
<div id="swagger-ui"></div>
<script src="${asset('swagger-ui-bundle.js')}"></script>
<script src="${asset('swagger-ui-standalone-preset.js')}"></script>
<script>
window.ui = SwaggerUIBundle({
  url: ${scriptJson(specUrl)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
  // The page must not phone home: no validator badge fetched from swagger.io.
  validatorUrl: null,
  persistAuthorization: false
});
</script>
</body>
</html>
`;
}
