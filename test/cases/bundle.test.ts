import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  manifestBytes,
  MANIFEST,
  packBundle,
  SIGNATURE,
  unpackBundle,
  verifyBundle,
  type BundleFile,
  type Jwks,
} from '../../src/cases/export/bundle.js';

/**
 * The evidentiary bundle as a pure function (DESIGN.md section 3): what is
 * packed verifies against the published key, and changing one byte of any
 * file, of the manifest or of the signature is caught and named.
 */
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const KID = 'ek_test_key_0001';
const KEYS: Jwks = { keys: [{ ...publicKey.export({ format: 'jwk' }), kid: KID, use: 'sig', alg: 'EdDSA' } as Jwks['keys'][number]] };
const FILES: BundleFile[] = [
  'README.md',
  'case.json',
  'timeline.json',
  'graph.json',
  'assessments.json',
  'observations.json',
  'material.json',
  'audit.json',
].map((name, i) => ({ name, bytes: Buffer.from(`{"file":"${name}","n":${i}}\n`) }));
const HEAD = {
  kid: KID,
  case_id: '7b0a7c7e-0000-4000-8000-000000000001',
  export_id: '7b0a7c7e-0000-4000-8000-000000000002',
  created_at: '2026-11-25T00:00:00.000Z',
};

async function bundleOf(files: BundleFile[], tamper?: (manifest: Buffer, signature: Buffer) => [Buffer, Buffer]): Promise<Buffer> {
  const manifest = manifestBytes(FILES, HEAD);
  const signature = sign(null, manifest, privateKey);
  const [m, s] = tamper ? tamper(Buffer.from(manifest), Buffer.from(signature)) : [manifest, signature];
  return packBundle(files, m, s);
}

const flipByte = (bytes: Buffer, at = 2) => {
  const copy = Buffer.from(bytes);
  copy[at] = copy[at]! ^ 0x01;
  return copy;
};

describe('the evidentiary bundle', () => {
  it('given a packed bundle, then it verifies with the published key and lists every file with its hash and size', async () => {
    const result = await verifyBundle(await bundleOf(FILES), KEYS);
    expect(result).toMatchObject({ ok: true, problems: [] });
    expect(result.manifest!.files).toEqual(
      FILES.map((f) => ({ name: f.name, sha256: createHash('sha256').update(f.bytes).digest('hex'), size: f.bytes.length })),
    );
    const { files } = await unpackBundle(await bundleOf(FILES));
    expect([...files.keys()]).toEqual([...FILES.map((f) => f.name), MANIFEST, SIGNATURE]);
  });

  it.each(FILES.map((f) => f.name))('given one byte of %s changed, then verification fails naming it', async (name) => {
    const files = FILES.map((f) => (f.name === name ? { name, bytes: flipByte(f.bytes) } : f));
    const result = await verifyBundle(await bundleOf(files), KEYS);
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([`${name}: its sha256 differs from the manifest's`]);
  });

  it('given one byte of the manifest changed, then the signature fails', async () => {
    const result = await verifyBundle(await bundleOf(FILES, (m, s) => [flipByte(m, m.indexOf('created_at') + 20), s]), KEYS);
    expect(result.problems).toEqual([`${SIGNATURE}: the signature does not match ${MANIFEST} under key ${KID}`]);
  });

  it('given one byte of the signature changed, then the signature fails', async () => {
    const result = await verifyBundle(await bundleOf(FILES, (m, s) => [m, flipByte(s, 10)]), KEYS);
    expect(result.problems).toEqual([`${SIGNATURE}: the signature does not match ${MANIFEST} under key ${KID}`]);
  });

  it('given a file removed, a file added or a file truncated, then each is named', async () => {
    const removed = await verifyBundle(await bundleOf(FILES.filter((f) => f.name !== 'audit.json')), KEYS);
    expect(removed.problems).toEqual(['audit.json: listed in the manifest but missing']);
    const added = await verifyBundle(await bundleOf([...FILES, { name: 'extra.json', bytes: Buffer.from('{}') }]), KEYS);
    expect(added.problems).toEqual(['extra.json: not listed in the manifest']);
    const truncated = await verifyBundle(
      await bundleOf(FILES.map((f) => (f.name === 'graph.json' ? { name: f.name, bytes: f.bytes.subarray(1) } : f))),
      KEYS,
    );
    expect(truncated.problems).toEqual([`graph.json: ${FILES[3]!.bytes.length - 1} bytes, the manifest says ${FILES[3]!.bytes.length}`]);
  });

  it('given keys that do not hold the signing key, or bytes that are not a bundle, then it says so', async () => {
    const other = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    const wrongKey = await verifyBundle(await bundleOf(FILES), { keys: [{ ...other, kid: KID } as Jwks['keys'][number]] });
    expect(wrongKey.problems).toEqual([`${SIGNATURE}: the signature does not match ${MANIFEST} under key ${KID}`]);
    const noKey = await verifyBundle(await bundleOf(FILES), { keys: [] });
    expect(noKey.problems).toEqual([`${SIGNATURE}: no published Ed25519 key has the id ${KID}`]);
    expect((await verifyBundle(Buffer.from('not a bundle'), KEYS)).problems).toEqual(['the bundle is not a readable gzip file']);
  });
});
