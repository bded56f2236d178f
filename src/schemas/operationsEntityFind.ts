import type { OperationSpec } from './operation.js';
import { EntityFindOut, EntityFindQuery } from '../entities/findSchemas.js';

/** Finding entities by a presented value: an extension of the contract (issue 38, src/entities/findSchemas.ts). */
export const ENTITY_FIND_OPERATIONS: readonly OperationSpec[] = [
  {
    operationId: 'findEntities',
    method: 'get',
    path: '/v1/entities',
    tag: 'Entities',
    auth: 'entities',
    summary: "Find the tenant's entities by a presented value",
    description:
      'An extension of the contract (issue 38): the contract reads an entity only by its id. The value is normalised as entity ' +
      "resolution normalises an inquiry's presentations (`country` reads a phone number as `claim.country` does), and only the " +
      "key's tenant and mode are searched. An entity resolved on the value (`anchor`) comes first, then those it was presented beside " +
      '(`link`), oldest first. A type not registered to the tenant is refused (rule I15).',
    query: EntityFindQuery,
    success: { status: 200, description: 'The entities carrying the value; none is an empty list.', schema: EntityFindOut },
    validation: true,
  },
];
