/** The policies capability's surface: the only file (with schemas.ts) that other folders import. */
export type { CurrentPolicy, PolicyCache } from './cache.js';
export { allows, labelFor } from './evaluate.js';
export { listPolicyVersions, publishPolicy } from './commands.js';
export { originAllowed } from './origins.js';
export { INTENT_REFUSAL, PURPOSE_REFUSAL, admit, policyRefusalItem, purposePermitted, refusalOf, unregisteredTypes } from './admission.js';
export type { AdmissionDeps } from './admission.js';
