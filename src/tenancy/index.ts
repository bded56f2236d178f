/** The tenancy capability's surface: the only file (with schemas.ts) that other folders import. */
export { tenantIsInvestigative } from './commands.js';
export { listTenantKeys, mintTenantKey, revokeTenantKey, rotateTenantKey } from './keyCommands.js';
export type { KeyCommandDeps, MintedKeyOut } from './keyCommands.js';
