/** The cases capability's surface: the only file (with schemas.ts) that other folders import. */
export type { CaseExpansion } from './expand.js';
export type { CaseExports } from './export/exports.js';
export { isSigningKeySealedUnderCurrent, publishedKeys, sealSigningKey, unsealSigningKey } from './export/keys.js';
export type { CaseService } from './service.js';
