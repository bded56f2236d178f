import { z } from 'zod';
import { component } from '../schemas/common.js';

/**
 * Registry reads: what the calling tenant may present (artifact types), use
 * (intents) and declare (purposes). Never enumerated in the contract itself.
 */

export const RegistryEntryOut = component(
  'RegistryEntryOut',
  'One registered id the tenant may use.',
  z.strictObject({
    id: z.string(),
    description: z.string(),
    normaliser: z.string().optional().describe('Artifact types only: how presented values are normalised, for example `e164`.'),
  }),
);

export const RegistryEntryList = z.array(RegistryEntryOut);

export type RegistryEntryOut = z.infer<typeof RegistryEntryOut>;
