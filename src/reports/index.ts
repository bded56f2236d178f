/** The reports capability's surface: the only file (with schemas.ts) that other folders import. */
export type { ModelRenderer } from './model.js';
export { renderReport } from './render.js';
export type { RenderMode } from './render.js';
