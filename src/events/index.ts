/** The events capability's surface: the only file (with schemas.ts) that other folders import. */
export { envelopeOf, eventIdOf } from './hub.js';
export type { EventHub, HubMessage, Unsubscribe } from './hub.js';
export { createEventPump } from './pump.js';
export { readStreamAfter } from './commands.js';
