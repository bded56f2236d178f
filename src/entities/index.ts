/** The entities capability's surface: the only file (with schemas.ts) that other folders import. */
export { carriersOf, countedValues, identifiersOf, loadEnvironment, newEntityGraphExpression, unseenEnvironment } from './history.js';
export { knownValuesOf } from './knownValues.js';
export { EntityNotFoundError, membersOf, newEntityPlan, resolveEntity, resolvingIdentifiers, survivorOf } from './resolve.js';
export type { Resolution, ResolveOptions, ResolveScope } from './resolve.js';
export { deriveStance, stanceOf } from './stance.js';
