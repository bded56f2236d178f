/** The registry capability's surface: the only file (with schemas.ts) that other folders import. */
export { createTtlCache, parseScopeKey, scopeKey } from './cache.js';
export type { GrantScope, Grants, RegistryCache } from './cache.js';
export { withListing, withRegistryHint } from './listings.js';
export { listRegistry } from './entries.js';
export type { RegistryKind } from './entries.js';
