/** The auth capability's surface: the only file (with schemas.ts) that other folders import. */
export { generateKey, hashKey, keyPrefixOf, newSalt } from './apiKey.js';
export type { Authenticator, Principal } from './authenticate.js';
export type { AuditFacts, AuditSink, CallContext, CallOutcome } from './call.js';
export { PEPPER_ID_BYTES, pepperId, pepperIdBytes, pepperWithId, peppersOf, purposeKey, ringOf } from './keyring.js';
export type { Keyring } from './keyring.js';
export { requirePrincipal } from './principal.js';
export type { RevocationBus } from './revocations.js';
export { expireKeyAt, findActiveKey, insertKey, keyStateOf, listKeys, revokeKey } from './keyRecords.js';
export type { KeyState } from './keyRecords.js';
export { createStreamTickets } from './streamTickets.js';
export type { StreamGrant, StreamKind, StreamTickets } from './streamTickets.js';
export { createStreamAccess } from './streamAccess.js';
