/** The entities capability's surface: the only file (with schemas.ts) that other folders import. */
export { carriersOf, identifiersOf, loadEnvironment, newEntityGraphExpression } from './history.js';
export { EntityNotFoundError, membersOf, resolveEntity, resolvingIdentifiers, survivorOf } from './resolve.js';
export type { Resolution, ResolveOptions, ResolveScope } from './resolve.js';
export { deriveStance, stanceOf } from './stance.js';
