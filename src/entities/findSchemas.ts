import { z } from 'zod';
import { component, dateTime, idString, uuid, valueString } from '../schemas/common.js';

/**
 * Finding the tenant's entities by a presented value (issue 38): an extension
 * of the contract, which reads an entity only by its id. The value is
 * normalised exactly as entity resolution normalises it, so a value written
 * another way (`Ann@Example.org`, `+44 20 7946 0555` as `020 7946 0555` with
 * `country=GB`) finds the same entity.
 */
export const EntityFindQuery = z.strictObject({
  type: idString.describe('A registered artifact type id (GET /v1/registry/artifact-types), for example `EMAIL`, `PHONE`, `DOMAIN`.'),
  value: valueString.describe('The value as presented; the service normalises it as it does when resolving an inquiry.'),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .optional()
    .describe(
      'ISO 3166-1 alpha-2, upper case: the region a phone number without an international prefix is read in, as `claim.country` is.',
    ),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type EntityFindQuery = z.infer<typeof EntityFindQuery>;

export const EntityMatch = component(
  'EntityMatch',
  'An entity of the tenant that carries the value; `GET /v1/entities/{entity_id}` reads it.',
  z.strictObject({
    entity_id: uuid.describe('The entity as it now is: the survivor when the one that carried the value was merged.'),
    held_as: z
      .enum(['anchor', 'link'])
      .describe(
        "`anchor`: the entity is resolved on this value, and no other entity is. `link`: the value was presented beside the entity's anchor; several entities may share it.",
      ),
    first_seen_at: dateTime,
    entity_url: z.string(),
  }),
);
export type EntityMatch = z.infer<typeof EntityMatch>;

/** A match as the command finds it: the route gives it its address (entity_url). */
export const EntityFound = EntityMatch.omit({ entity_url: true });
export type EntityFound = z.infer<typeof EntityFound>;

export const EntityFindOut = component(
  'EntityFindOut',
  'The entities carrying a value, anchors first, then the oldest links.',
  z.strictObject({
    type: z.string(),
    normalised: z.string().describe('The value as the service normalised it, the form entities are matched on.'),
    entities: z.array(EntityMatch),
  }),
);
export type EntityFindOut = z.infer<typeof EntityFindOut>;

/** What the command answers: the wire's body but for the entities' addresses. */
export type EntitiesFound = Omit<EntityFindOut, 'entities'> & { entities: EntityFound[] };
