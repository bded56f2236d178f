import type { Mode, Tx } from '../platform/db/pool.js';
import { bytesStored, deleteBytesUnlessKept, insertChunk, readBytes } from './bytesStore.js';

/**
 * Where uploaded material bytes live (issue 14): content-addressed by
 * SHA-256 within one tenant and mode, written in order in chunks of at most
 * MAX_CHUNK_BYTES (src/material/bytesStore.ts), read back whole up to a bound.
 * Everything that touches bytes (the upload, the extraction, the export)
 * goes through this interface and nothing else.
 *
 * The store is opened on the caller's transaction. PostgreSQL's store
 * (the default, so every edge and worker reads the same bytes) takes part in
 * it: bytes that a rolled-back upload wrote are gone with it, and a delete
 * commits with the extraction that made it due. An S3-compatible store
 * would implement the same four calls outside the transaction: its writes
 * would need the material sweep (src/material/retention.ts) to remove what
 * a rollback left behind, and its deletes to run after commit.
 */
export interface MaterialByteStore {
  /** Whether bytes under this hash are already stored: a second declaration of the same bytes writes nothing. */
  has(sha256: string): Promise<boolean>;
  /** Writes the chunk at position `seq`; chunks arrive in order. */
  putChunk(sha256: string, seq: number, chunk: Buffer): Promise<void>;
  /** All the bytes under the hash (empty when none); BytesOverLimit past `maxBytes`. */
  read(sha256: string, maxBytes?: number): Promise<Buffer>;
  /** Deletes the bytes unless a material that keeps its bytes still names them. */
  deleteUnlessKept(sha256: string): Promise<void>;
}

export type OpenByteStore = (tx: Tx, scope: { tenantId: string; mode: Mode }) => MaterialByteStore;

export const postgresByteStore: OpenByteStore = (tx, scope) => ({
  has: (sha256) => bytesStored(tx, sha256),
  putChunk: (sha256, seq, chunk) => insertChunk(tx, scope, sha256, seq, chunk),
  read: (sha256, maxBytes) => readBytes(tx, sha256, maxBytes),
  deleteUnlessKept: (sha256) => deleteBytesUnlessKept(tx, sha256),
});
