import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * What each (kind, disposition) has been measured to tell (METHODOLOGY.md
 * section 8, rule 2): the likelihood ratio with its 90 % interval and the
 * strength its lower end supports, as `npm run bench:quality -- --write`
 * measured it on labelled public corpora the checks do not read (and, for
 * names, `npx tsx bench/names.ts --write`: nameLikelihoodRatios.json). Published
 * beside each declared strength (docs/checks.md, the served catalogue), and
 * test/checks/measuredStrengths.test.ts fails when a declaration claims more
 * than its measurement supports. Data, not code: the bench writes the file.
 */

const Supported = z.enum(['neutral', 'weak', 'moderate', 'strong']);

const Measurement = z.object({
  kind: z.string(),
  disposition: z.enum(['supports', 'weakens', 'neutral']),
  direction: z.enum(['supports', 'weakens']),
  bad_with: z.number().int(),
  bad: z.number().int(),
  good_with: z.number().int(),
  good: z.number().int(),
  lr: z.number().nullable(),
  lr_low: z.number().nullable(),
  lr_high: z.number().nullable(),
  supports_strength: Supported.nullable(),
  corpora: z.array(z.string()),
});
export type Measurement = z.infer<typeof Measurement>;

const MeasurementsFile = z.object({
  generated_by: z.string(),
  seed: z.number(),
  per_class: z.number(),
  half: z.string(),
  corpora: z.array(z.string()),
  measurements: z.array(Measurement),
});
export type MeasurementsFile = z.infer<typeof MeasurementsFile>;

export const MEASUREMENTS_PATH = new URL('./data/likelihoodRatios.json', import.meta.url);
/**
 * The name-screening grades, measured apart by `npx tsx bench/names.ts
 * --write` on listed names typed with variants against ordinary names: no
 * corpus of the quality bench holds a NAME.
 */
export const NAME_MEASUREMENTS_PATH = new URL('./data/nameLikelihoodRatios.json', import.meta.url);

let loaded: MeasurementsFile | undefined;
let loadedNames: MeasurementsFile | undefined;

/** The committed measurements of the quality bench, read once. */
export function measurements(): MeasurementsFile {
  loaded ??= MeasurementsFile.parse(JSON.parse(readFileSync(MEASUREMENTS_PATH, 'utf8')));
  return loaded;
}

/** The committed measurements of the names bench, read once. */
export function nameMeasurements(): MeasurementsFile {
  loadedNames ??= MeasurementsFile.parse(JSON.parse(readFileSync(NAME_MEASUREMENTS_PATH, 'utf8')));
  return loadedNames;
}

/**
 * The measurement of one fact, from either file, or null when it was not
 * measured (no corpus holds the check's type, or too few subjects showed it).
 */
export function measurementOf(kind: string, disposition: string): Measurement | null {
  for (const file of [measurements(), nameMeasurements()]) {
    const found = file.measurements.find((m) => m.kind === kind && m.disposition === disposition);
    if (found) return found.lr !== null ? found : null;
  }
  return null;
}
