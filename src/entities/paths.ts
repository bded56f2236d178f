/**
 * The entities' addresses, built by their routes only: commands answer
 * entities without knowing where the wire serves them (issue 49 item 5).
 * Relative, as SPEC.md writes them for entities.
 */
export const entityPath = (entityId: string): string => `/v1/entities/${entityId}`;
export const ledgerPath = (entityId: string): string => `${entityPath(entityId)}/ledger`;
