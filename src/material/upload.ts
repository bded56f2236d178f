import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { mkdir, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withTenant, type Db, type Mode } from '../platform/db/pool.js';
import { asTenantUnit } from '../platform/unitContext.js';
import { lockUploadTarget, markReceived, MAX_CHUNK_BYTES, type UploadTarget } from './bytesStore.js';
import { postgresByteStore, type MaterialByteStore, type OpenByteStore } from './byteStore.js';
import type { MaterialRow } from './store.js';
import { ServiceProblem, ValidationFailure } from '../platform/problems.js';

/**
 * The signed upload URL and the upload through it.
 *
 * The URL carries a token `<tenant>.<mode>.<secret>`: the tenant and mode
 * say which tenant's rows to open (row-level security needs them before
 * anything is read), the 256-bit secret is what authorises, and only its
 * SHA-256 is stored. It is single-use (`received_at`), expires after
 * UPLOAD_TTL_MS, and works only for the bytes declared: a PUT whose hash or
 * size differs is refused and nothing of it is kept.
 *
 * The body is staged on local disk (a file under the staging directory) with
 * no connection and no transaction held (issue 40: an upload used to hold a
 * pooled connection and the material's row lock for the whole body, up to
 * 64 MiB from a client as slow as it liked, out of a pool of 20). The URL is
 * checked in a short transaction before the body is read, and again in the
 * one transaction at the end, which copies the staged bytes into the byte
 * store at disk speed and marks the material received; the staged file is
 * removed whatever happens. Bytes already stored for this tenant (the same
 * file declared twice) are not written again.
 */
export const UPLOAD_TTL_MS = 60 * 60 * 1000;

export interface IssuedUpload {
  token: string;
  tokenHash: string;
  expiresAt: string;
}

export function issueUploadToken(scope: { tenantId: string; mode: Mode }, now: Date): IssuedUpload {
  const secret = randomBytes(32).toString('base64url');
  return {
    token: `${scope.tenantId}.${scope.mode}.${secret}`,
    tokenHash: hashOf(secret),
    expiresAt: new Date(now.getTime() + UPLOAD_TTL_MS).toISOString(),
  };
}

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');
// A tenant id is a uuid exactly: a looser pattern let 36 dashes reach PostgreSQL's uuid cast (a 502; issue 40).
const TOKEN = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(live|test)\.([A-Za-z0-9_-]{43})$/;

/** The scope a token names, or null when it is not one of ours (a 404, decided before any database work). */
export function scopeOfToken(token: string): { tenantId: string; mode: Mode; secret: string } | null {
  const m = TOKEN.exec(token);
  return m ? { tenantId: m[1]!, mode: m[2] as Mode, secret: m[3]! } : null;
}

const refused = () => new ServiceProblem('forbidden', 'This upload URL is not valid for this material.');

export interface ReceivedUpload {
  material: MaterialRow;
  scope: { tenantId: string; mode: Mode };
}

/** Where bodies are staged unless the root names a directory (it gives TAS_SPOOL_DIR/uploads). */
export const defaultStagingDir = () => join(tmpdir(), 'tas-uploads');

export async function receiveUpload(
  db: Db,
  materialId: string,
  token: string,
  body: AsyncIterable<Buffer>,
  now: () => Date,
  openBytes: OpenByteStore = postgresByteStore,
  stagingDir: string = defaultStagingDir(),
): Promise<ReceivedUpload> {
  const scope = scopeOfToken(token);
  if (!scope) throw new ServiceProblem('not-found', 'No such upload URL.');
  // Expiry is judged when the body starts: a slow upload that began in time is not refused at its end.
  const startedAt = now();
  const target = await withTenant(db, scope, async (tx) => {
    const found = await lockUploadTarget(tx, materialId);
    checkUsable(found, scope.secret, startedAt);
    return found!;
  });
  // The body's chunks are the tenant's work, taken in its turns of the process's scheduler once the URL proved
  // whose it is; a chunk waiting for its turn is not read, and the body's bound pauses the client (issue 48).
  const staged = await asTenantUnit(scope.tenantId, 'upload', () => stageBody(stagingDir, target, body));
  try {
    const material = await withTenant(db, scope, async (tx) => {
      // Again under the row lock: another upload through the same URL may have finished meanwhile (409).
      const again = await lockUploadTarget(tx, materialId);
      checkUsable(again, scope.secret, startedAt);
      const bytes = openBytes(tx, scope);
      if (!(await bytes.has(again!.sha256!))) await copyStaged(staged, bytes, again!.sha256!);
      return markReceived(tx, materialId, keepsBytes(again!));
    });
    return { material, scope: { tenantId: scope.tenantId, mode: scope.mode } };
  } finally {
    await rm(staged, { force: true });
  }
}

function checkUsable(target: UploadTarget | null, secret: string, now: Date): void {
  if (!target || target.sha256 === null) throw refused();
  // The secret first: only the URL's holder learns that its bytes were already received.
  if (target.upload_token_hash === null || !sameHex(target.upload_token_hash, hashOf(secret))) throw refused();
  if (target.received_at !== null)
    throw new ServiceProblem('conflict', 'The bytes of this material were already received; an upload URL is used once.');
  if (target.upload_expires_at === null || Date.parse(target.upload_expires_at) <= now.getTime()) {
    throw new ServiceProblem('gone', 'This upload URL has expired; declare the material again for a new one.');
  }
}

const sameHex = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Standard retention keeps the bytes; transient and C2 keep them only until extraction ends (D35). */
function keepsBytes(target: UploadTarget): boolean {
  return target.retention_mode === 'standard' && target.data_class !== 'C2';
}

/**
 * Writes the body to a new file under `dir`, counting and hashing as it
 * goes; the file's path once the body is complete and is the declared one.
 * Each write is awaited, so the edge pauses a client faster than the disk.
 */
async function stageBody(dir: string, target: UploadTarget, body: AsyncIterable<Buffer>): Promise<string> {
  const declaredSize = target.size!;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `${randomUUID()}.part`);
  const file = await open(path, 'wx', 0o600);
  const hash = createHash('sha256');
  let size = 0;
  try {
    for await (const chunk of body) {
      size += chunk.length;
      if (size > declaredSize) throw mismatch('size_bytes', `The upload is longer than the declared ${declaredSize} bytes.`);
      hash.update(chunk);
      await file.write(chunk);
    }
    if (size !== declaredSize) throw mismatch('size_bytes', `The upload has ${size} bytes; ${declaredSize} were declared.`);
    if (hash.digest('hex') !== target.sha256) throw mismatch('sha256', 'The SHA-256 of the upload is not the declared one.');
    await file.close();
    return path;
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(path, { force: true });
    throw error;
  }
}

/** The staged file into the byte store, in chunks of MAX_CHUNK_BYTES, in order. */
async function copyStaged(path: string, bytes: MaterialByteStore, sha256: string): Promise<void> {
  const file = await open(path, 'r');
  try {
    for (let seq = 0; ; seq += 1) {
      const chunk = Buffer.allocUnsafe(MAX_CHUNK_BYTES);
      const { bytesRead } = await file.read(chunk, 0, MAX_CHUNK_BYTES, null);
      if (bytesRead === 0) return;
      await bytes.putChunk(sha256, seq, chunk.subarray(0, bytesRead));
    }
  } finally {
    await file.close();
  }
}

function mismatch(field: 'sha256' | 'size_bytes', msg: string): ValidationFailure {
  return new ValidationFailure([{ loc: ['body'], type: `${field}_mismatch`, msg }]);
}
