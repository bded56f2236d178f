/** The material capability's surface: the only file (with schemas.ts) that other folders import. */
export { postgresByteStore } from './byteStore.js';
export type { MaterialByteStore, OpenByteStore } from './byteStore.js';
export { BytesOverLimit, keptMaterialHashes, readInlineContent } from './bytesStore.js';
export type { MaterialJob } from './extraction.js';
export { ocrHealth } from './ocr.js';
export { findMaterial, listExtractions } from './store.js';
