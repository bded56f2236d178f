import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import tar from 'tar-stream';

/**
 * The evidentiary bundle (DESIGN.md section 3), pure: a gzip-compressed POSIX
 * tar holding the case's files, `manifest.json` (every other file with its
 * sha256 and size, and the signing key id) and `manifest.sig`, the raw
 * 64-byte Ed25519 signature over the manifest's exact bytes. Verification
 * needs only the bundle and the published keys (a JWKS), never the service.
 */
export const BUNDLE_FORMAT = 'tas-case-bundle/1';
export const MANIFEST = 'manifest.json';
export const SIGNATURE = 'manifest.sig';
// A bundle is one case; anything larger than this is not a bundle we wrote.
const MAX_BUNDLE_BYTES = 512 * 1024 * 1024;

export interface BundleFile {
  name: string;
  bytes: Buffer;
}
export interface ManifestEntry {
  name: string;
  sha256: string;
  size: number;
}
export interface Manifest {
  format: string;
  kid: string;
  case_id: string;
  export_id: string;
  created_at: string;
  files: ManifestEntry[];
}
export interface Jwk {
  kty: string;
  crv?: string;
  x?: string;
  kid?: string;
  use?: string;
  alg?: string;
  /** Signs from this moment (seconds since the epoch), its creation. */
  nbf?: number;
  /** Signs until this moment, its retirement; absent while it is the active key. */
  exp?: number;
  /** Revoked: it verifies nothing (issue 40). */
  revoked_at?: string;
}
export interface Jwks {
  keys: Jwk[];
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The manifest of the files, as bytes: what is signed, exactly as stored. */
export function manifestBytes(files: readonly BundleFile[], head: Omit<Manifest, 'format' | 'files'>): Buffer {
  const manifest: Manifest = {
    format: BUNDLE_FORMAT,
    ...head,
    files: files.map((f) => ({ name: f.name, sha256: sha256(f.bytes), size: f.bytes.length })),
  };
  return Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
}

/** The tar.gz of the files, the manifest and its signature, in that order. */
export async function packBundle(files: readonly BundleFile[], manifest: Buffer, signature: Buffer): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    pack.on('end', resolve);
    pack.on('error', reject);
  });
  // A fixed mtime: the same case exported twice differs only in the manifest's created_at and signature.
  const mtime = new Date(0);
  for (const f of [...files, { name: MANIFEST, bytes: manifest }, { name: SIGNATURE, bytes: signature }])
    pack.entry({ name: f.name, mtime, mode: 0o644 }, f.bytes);
  pack.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks));
}

/** Every regular file of a tar.gz, by name; a second entry of one name is kept as a problem. */
export async function unpackBundle(tarGz: Buffer): Promise<{ files: Map<string, Buffer>; problems: string[] }> {
  const problems: string[] = [];
  const files = new Map<string, Buffer>();
  let tarBytes: Buffer;
  try {
    tarBytes = gunzipSync(tarGz, { maxOutputLength: MAX_BUNDLE_BYTES });
  } catch {
    return { files, problems: ['the bundle is not a readable gzip file'] };
  }
  const extract = tar.extract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on('finish', resolve);
    extract.on('error', reject);
  });
  extract.on('entry', (header, stream, next) => {
    const parts: Buffer[] = [];
    stream.on('data', (c: Buffer) => parts.push(c));
    stream.on('end', () => {
      if (header.type !== 'file') problems.push(`${header.name}: not a regular file`);
      else if (files.has(header.name)) problems.push(`${header.name}: appears twice`);
      else files.set(header.name, Buffer.concat(parts));
      next();
    });
    stream.resume();
  });
  extract.end(tarBytes);
  try {
    await done;
  } catch {
    problems.push('the bundle is not a readable tar archive');
  }
  return { files, problems };
}

function publicKeyOf(keys: Jwks, kid: string): KeyObject | null {
  const jwk = keys.keys.find((k) => k.kid === kid && k.kty === 'OKP' && k.crv === 'Ed25519' && typeof k.x === 'string');
  if (!jwk) return null;
  try {
    return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x! }, format: 'jwk' });
  } catch {
    return null;
  }
}

/**
 * A signature is good only from a key that was signing when the manifest
 * says it was made (its `nbf` to its `exp`), and never from a revoked key:
 * a key that leaked after its retirement cannot date a bundle inside its
 * window either, so revocation refuses all of its bundles.
 */
function validityProblems(keys: Jwks, manifest: Manifest): string[] {
  const jwk = keys.keys.find((k) => k.kid === manifest.kid)!;
  if (jwk.revoked_at !== undefined) return [`${SIGNATURE}: key ${manifest.kid} was revoked on ${jwk.revoked_at}; it proves nothing`];
  const made = Date.parse(manifest.created_at) / 1000;
  if (Number.isNaN(made)) return [`${MANIFEST}: created_at is not a date`];
  if (jwk.nbf !== undefined && made < jwk.nbf) return [`${SIGNATURE}: the bundle is dated before key ${manifest.kid} was made`];
  if (jwk.exp !== undefined && made >= jwk.exp) return [`${SIGNATURE}: the bundle is dated after key ${manifest.kid} was retired`];
  return [];
}

export interface Verification {
  ok: boolean;
  problems: string[];
  manifest: Manifest | null;
}

/**
 * Checks a bundle offline: the signature over the manifest's exact bytes with
 * the key the manifest names, then every listed file's presence, size and
 * sha256, and that nothing unlisted rides along. Every problem is named by
 * its file, so a reader knows exactly what was changed.
 */
export async function verifyBundle(tarGz: Buffer, keys: Jwks): Promise<Verification> {
  const { files, problems } = await unpackBundle(tarGz);
  // Nothing more can be said of bytes that are not a readable archive.
  if (problems.some((p) => p.startsWith('the bundle is not'))) return { ok: false, problems, manifest: null };
  const manifestRaw = files.get(MANIFEST);
  const signature = files.get(SIGNATURE);
  if (!manifestRaw) problems.push(`${MANIFEST}: missing`);
  if (!signature) problems.push(`${SIGNATURE}: missing`);
  if (!manifestRaw || !signature) return { ok: false, problems, manifest: null };
  let manifest: Manifest;
  try {
    manifest = JSON.parse(manifestRaw.toString('utf8')) as Manifest;
    if (manifest.format !== BUNDLE_FORMAT || !Array.isArray(manifest.files) || typeof manifest.kid !== 'string') throw new Error('shape');
  } catch {
    return { ok: false, problems: [...problems, `${MANIFEST}: not a ${BUNDLE_FORMAT} manifest`], manifest: null };
  }
  const key = publicKeyOf(keys, manifest.kid);
  if (!key) problems.push(`${SIGNATURE}: no published Ed25519 key has the id ${manifest.kid}`);
  else if (signature.length !== 64 || !verify(null, manifestRaw, key, signature))
    problems.push(`${SIGNATURE}: the signature does not match ${MANIFEST} under key ${manifest.kid}`);
  else problems.push(...validityProblems(keys, manifest));
  const listed = new Set<string>();
  for (const entry of manifest.files) {
    listed.add(entry.name);
    const bytes = files.get(entry.name);
    if (!bytes) problems.push(`${entry.name}: listed in the manifest but missing`);
    else if (bytes.length !== entry.size) problems.push(`${entry.name}: ${bytes.length} bytes, the manifest says ${entry.size}`);
    else if (sha256(bytes) !== entry.sha256) problems.push(`${entry.name}: its sha256 differs from the manifest's`);
  }
  for (const name of files.keys())
    if (name !== MANIFEST && name !== SIGNATURE && !listed.has(name)) problems.push(`${name}: not listed in the manifest`);
  return { ok: problems.length === 0, problems, manifest };
}
