import type { MaterialFailureReason } from '../schemas.js';

/**
 * One thing an extractor found in material bytes: an identifier (artifact)
 * or a fact the file states about itself (claim: its author, the device that
 * made it, where), with where it sits. The extraction command turns these
 * into stored items and bindings (fingerprints for C2 material).
 */
export interface ExtractedThing {
  type: string;
  normalised: string;
  targetKind: 'artifact' | 'claim';
  locatorKind: 'text' | 'document' | 'image' | 'structured';
  locator: Record<string, unknown>;
  confidence: number;
}

/** Extraction gave up for a reason the tenant may be told (never the file's content). */
export class ExtractionFailure extends Error {
  override name = 'ExtractionFailure';
  constructor(readonly reason: MaterialFailureReason) {
    super(reason);
  }
}

export interface ExtractOptions {
  /** Region for national-format phone numbers (ISO 3166 alpha-2). */
  defaultCountry?: string;
}

/** The options for a material's stored phone region (null: international numbers only). */
export const regionOptions = (region: string | null): ExtractOptions => (region === null ? {} : { defaultCountry: region });
