/** The observations capability's surface: the only file (with schemas.ts) that other folders import. */
export { loadAdmission, observationRefusals, recordObservation } from './record.js';
export { observationsInsert, observationsOfEntities, recordObservations, recordOutcomes } from './commands.js';
export type { NewObservation } from './commands.js';
export type { ObservationDeps } from './commands.js';
