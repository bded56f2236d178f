import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { withTenant, type Db, type Mode } from '../db/pool.js';
import { lockUploadTarget, markReceived, MAX_CHUNK_BYTES, type UploadTarget } from '../db/materialBytes.js';
import { postgresByteStore, type MaterialByteStore, type OpenByteStore } from './byteStore.js';
import type { MaterialRow } from '../db/material.js';
import { ServiceProblem, ValidationFailure } from '../platform/problems.js';

/**
 * The signed upload URL and the upload through it.
 *
 * The URL carries a token `<tenant>.<mode>.<secret>`: the tenant and mode
 * say which tenant's rows to open (row-level security needs them before
 * anything is read), the 256-bit secret is what authorises, and only its
 * SHA-256 is stored. It is single-use (`received_at`), expires after
 * UPLOAD_TTL_MS, and works only for the bytes declared: a PUT whose hash or
 * size differs is refused and nothing of it is kept, because every chunk is
 * written in the transaction that the mismatch rolls back.
 *
 * The bytes stream through: at most one chunk (1 MiB) is held, the rest is in
 * PostgreSQL or still in the socket (the edge pauses the client while a chunk
 * is written). Bytes already stored for this tenant (the same file declared
 * twice) are hashed but not written again.
 */
export const UPLOAD_TTL_MS = 60 * 60 * 1000;

export interface IssuedUpload {
  token: string;
  tokenHash: string;
  expiresAt: string;
}

export function issueUploadToken(scope: { tenantId: string; mode: Mode }, now: Date): IssuedUpload {
  const secret = randomBytes(32).toString('base64url');
  return { token: `${scope.tenantId}.${scope.mode}.${secret}`, tokenHash: hashOf(secret), expiresAt: new Date(now.getTime() + UPLOAD_TTL_MS).toISOString() };
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

export async function receiveUpload(
  db: Db, materialId: string, token: string, body: AsyncIterable<Buffer>, now: () => Date, openBytes: OpenByteStore = postgresByteStore,
): Promise<ReceivedUpload> {
  const scope = scopeOfToken(token);
  if (!scope) throw new ServiceProblem('not-found', 'No such upload URL.');
  const material = await withTenant(db, scope, async (tx) => {
    const target = await lockUploadTarget(tx, materialId);
    checkUsable(target, scope.secret, now());
    await storeStream(openBytes(tx, scope), target!, body);
    return markReceived(tx, materialId, keepsBytes(target!));
  });
  return { material, scope: { tenantId: scope.tenantId, mode: scope.mode } };
}

function checkUsable(target: UploadTarget | null, secret: string, now: Date): void {
  if (!target || target.sha256 === null) throw refused();
  // The secret first: only the URL's holder learns that its bytes were already received.
  if (target.upload_token_hash === null || !sameHex(target.upload_token_hash, hashOf(secret))) throw refused();
  if (target.received_at !== null) throw new ServiceProblem('conflict', 'The bytes of this material were already received; an upload URL is used once.');
  if (target.upload_expires_at === null || Date.parse(target.upload_expires_at) <= now.getTime()) {
    throw new ServiceProblem('gone', 'This upload URL has expired; declare the material again for a new one.');
  }
}

const sameHex = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Standard retention keeps the bytes; transient and C2 keep them only until extraction ends (D35). */
function keepsBytes(target: UploadTarget): boolean {
  return target.retention_mode === 'standard' && target.data_class !== 'C2';
}

async function storeStream(bytes: MaterialByteStore, target: UploadTarget, body: AsyncIterable<Buffer>): Promise<void> {
  const declaredSize = target.size!;
  const declaredSha = target.sha256!;
  const write = !(await bytes.has(declaredSha));
  const hash = createHash('sha256');
  let size = 0;
  let seq = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const flush = async () => {
    if (pendingBytes === 0) return;
    if (write) await bytes.putChunk(declaredSha, seq, Buffer.concat(pending, pendingBytes));
    seq += 1;
    pending = [];
    pendingBytes = 0;
  };
  for await (const chunk of body) {
    size += chunk.length;
    if (size > declaredSize) throw mismatch('size_bytes', `The upload is longer than the declared ${declaredSize} bytes.`);
    hash.update(chunk);
    for (let at = 0; at < chunk.length; ) {
      const take = Math.min(MAX_CHUNK_BYTES - pendingBytes, chunk.length - at);
      pending.push(chunk.subarray(at, at + take));
      pendingBytes += take;
      at += take;
      if (pendingBytes === MAX_CHUNK_BYTES) await flush();
    }
  }
  await flush();
  if (size !== declaredSize) throw mismatch('size_bytes', `The upload has ${size} bytes; ${declaredSize} were declared.`);
  if (hash.digest('hex') !== declaredSha) throw mismatch('sha256', 'The SHA-256 of the upload is not the declared one.');
}

function mismatch(field: 'sha256' | 'size_bytes', msg: string): ValidationFailure {
  return new ValidationFailure([{ loc: ['body'], type: `${field}_mismatch`, msg }]);
}
