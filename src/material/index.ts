/** The material capability's surface: the only file (with schemas.ts) that other folders import. */
export { findMaterial, keptBytesOfCase, listExtractions, MaterialOverBudget, materialOfCase } from './commands.js';
export type { MaterialJob } from './extraction.js';
export { ocrHealth } from './ocr.js';
