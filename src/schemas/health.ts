import { z } from 'zod';
import { component } from './common.js';

/** Health and self-description bodies: deliberately open, as SPEC.md describes them. */

export const Liveness = component(
  'Liveness',
  'Liveness of the service, as string pairs (for example `status: ok`).',
  z.record(z.string(), z.string()),
);

export const Healthz = component(
  'Healthz',
  'Running build, tools discovered, whether the gateway schema answers and whether the database is reachable. Nothing about any tenant.',
  z.record(z.string(), z.unknown()),
);

export const OpenApiDocument = z.record(z.string(), z.unknown()).describe('The OpenAPI 3.1 document of this service.');
