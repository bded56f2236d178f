/** The sessions capability's surface: the only file (with schemas.ts) that other folders import. */
export type { SessionBinding, SessionCommands } from './commands.js';
export type { Refusal } from './frames.js';
export type { SessionService } from './service.js';
export type { FairGate } from './fairGate.js';
