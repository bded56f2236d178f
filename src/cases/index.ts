/** The cases capability's surface: the only file (with schemas.ts) that other folders import. */
export type { CaseExpansion } from './expand.js';
export type { CaseExports } from './export/exports.js';
export { publishedKeys } from './export/keys.js';
export { resealSigningKeys } from './export/reseal.js';
export type { CaseService } from './service.js';
