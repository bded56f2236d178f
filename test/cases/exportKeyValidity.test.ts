import { generateKeyPairSync, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestBytes, packBundle, verifyBundle, type BundleFile, type Jwk, type Jwks } from '../../src/cases/export/bundle.js';
import { activeKey, revokeKey, rotateKey } from '../../src/cases/export/keys.js';
import { startTestService, type TestService } from '../support/service.js';

/**
 * Issue 40: export signing keys have a validity window and a revoked state,
 * shown in the JWKS and honoured by `tas export verify` (verifyBundle). A
 * retired key verifies only bundles dated within its window; a revoked key
 * verifies none, whatever their date.
 */
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const KID = 'ek_validity_0001';
const FILES: BundleFile[] = [{ name: 'case.json', bytes: Buffer.from('{"case":1}\n') }];
const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);

async function bundleDated(createdAt: string): Promise<Buffer> {
  const manifest = manifestBytes(FILES, {
    kid: KID,
    case_id: '7b0a7c7e-0000-4000-8000-000000000001',
    export_id: '7b0a7c7e-0000-4000-8000-000000000002',
    created_at: createdAt,
  });
  return packBundle(FILES, manifest, sign(null, manifest, privateKey));
}

const keysWith = (extra: Partial<Jwk>): Jwks => ({
  keys: [{ ...publicKey.export({ format: 'jwk' }), kid: KID, use: 'sig', alg: 'EdDSA', ...extra } as Jwk],
});

describe('verifying under a key with a validity window', () => {
  const window = { nbf: at('2026-01-01T00:00:00Z'), exp: at('2026-06-01T00:00:00Z') };

  it('given a bundle dated within the window, then it verifies', async () => {
    expect(await verifyBundle(await bundleDated('2026-03-01T00:00:00.000Z'), keysWith(window))).toMatchObject({ ok: true, problems: [] });
  });

  it.each([
    ['after the key was retired', '2026-07-01T00:00:00.000Z', /dated after key .* was retired/],
    ['before the key was made', '2025-12-01T00:00:00.000Z', /dated before key .* was made/],
  ])('given a bundle dated %s, then it fails, saying so', async (_name, createdAt, problem) => {
    const result = await verifyBundle(await bundleDated(createdAt), keysWith(window));
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([expect.stringMatching(problem)]);
  });

  it('given a revoked key, then even a bundle dated within its window fails', async () => {
    const result = await verifyBundle(
      await bundleDated('2026-03-01T00:00:00.000Z'),
      keysWith({ ...window, revoked_at: '2026-08-01T00:00:00.000Z' }),
    );
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([expect.stringMatching(/was revoked/)]);
  });
});

describe('the published JWKS', () => {
  let ts: TestService;
  beforeAll(async () => {
    ts = await startTestService({}, { workers: false });
  });
  afterAll(async () => ts?.stop());

  const served = async () => (await (await fetch(`${ts.base}/.well-known/tas-export-keys.json`)).json()) as Jwks;

  it("shows each key's window and a revocation; revoking the active key puts a new one in its place", async () => {
    const first = await activeKey(ts.service.db, ts.config.keyPepper);
    let keys = await served();
    expect(keys.keys).toEqual([expect.objectContaining({ kid: first.kid, nbf: expect.any(Number) })]);
    expect(keys.keys[0]!.exp).toBeUndefined();

    const { kid: second } = await rotateKey(ts.service.db, ts.config.keyPepper);
    keys = await served();
    const retired = keys.keys.find((k) => k.kid === first.kid)!;
    expect(retired.exp).toBeGreaterThanOrEqual(retired.nbf!);
    expect(retired.revoked_at).toBeUndefined();

    const revoked = await revokeKey(ts.service.db, ts.config.keyPepper, second);
    expect(revoked.revoked).toBe(true);
    expect(revoked.replacedBy).not.toBeNull();
    keys = await served();
    expect(keys.keys.find((k) => k.kid === second)).toMatchObject({ revoked_at: expect.any(String), exp: expect.any(Number) });
    expect(keys.keys.find((k) => k.kid === revoked.replacedBy)).toMatchObject({ nbf: expect.any(Number) });
    expect((await activeKey(ts.service.db, ts.config.keyPepper)).kid).toBe(revoked.replacedBy);
    expect((await revokeKey(ts.service.db, ts.config.keyPepper, 'ek_no_such_key_000')).revoked).toBe(false);
  });
});
