import { readFile } from 'node:fs/promises';
import { verifyBundle, type Jwks } from '../cases/export/bundle.js';
import { revokeKey, rotateKey } from '../cases/export/keys.js';
import type { Config } from '../platform/config.js';
import { createDb } from '../platform/db/pool.js';
import { checkPostgres } from '../platform/preflight.js';
import { UsageError } from './usageError.js';

export const EXPORT_USAGE = `usage:
  tas export verify BUNDLE [--keys FILE|URL]   check an evidentiary bundle offline; exit 1 naming what fails
  tas export rotate-key                        retire the signing key and make a new one (old keys stay published)
  tas export revoke-key KID                    revoke a key (a leak): no bundle verifies under it any more

The keys default to ./tas-export-keys.json; a URL is fetched
(for example https://tas.example/.well-known/tas-export-keys.json).

example:
  tas export verify case-2f1c.tar.gz --keys https://tas.example/.well-known/tas-export-keys.json`;

/** A JWKS from a file or a URL (the audit trail's check reads the same keys: src/cli/operator.ts). */
export async function loadKeys(source: string): Promise<Jwks> {
  const text = /^https?:\/\//.test(source)
    ? await fetch(source).then((res) => {
        if (!res.ok) throw new UsageError(`--keys ${source} answered ${res.status}`);
        return res.text();
      })
    : await readFile(source, 'utf8').catch(() => {
        throw new UsageError(`--keys ${source}: no such file`);
      });
  try {
    const keys = JSON.parse(text) as Jwks;
    if (!Array.isArray(keys.keys)) throw new Error('no keys');
    return keys;
  } catch {
    throw new UsageError(`--keys ${source} is not a JWKS`);
  }
}

export async function exportCommand(args: string[], config: () => Config): Promise<number> {
  const [sub, ...rest] = args;
  // `--help` anywhere asks for the usage, never for a bundle named --help.
  const wantsHelp = sub === '--help' || sub === 'help' || rest.includes('--help') || rest.includes('-h');
  if (!wantsHelp && sub === 'verify') return verifyCommand(rest);
  if (!wantsHelp && sub === 'rotate-key') return rotateCommand(config());
  if (!wantsHelp && sub === 'revoke-key' && rest.length === 1) return revokeCommand(config(), rest[0]!);
  if (wantsHelp) {
    console.log(EXPORT_USAGE);
    return 0;
  }
  throw new UsageError(EXPORT_USAGE);
}

async function verifyCommand(args: string[]): Promise<number> {
  const keysAt = args.indexOf('--keys');
  const keysSource = keysAt >= 0 ? args[keysAt + 1] : './tas-export-keys.json';
  const positional = args.filter((_, i) => i !== keysAt && i !== keysAt + 1);
  if (positional.length !== 1 || keysSource === undefined) throw new UsageError(EXPORT_USAGE);
  const bundle = await readFile(positional[0]!).catch(() => {
    throw new UsageError(`${positional[0]}: no such file`);
  });
  const result = await verifyBundle(bundle, await loadKeys(keysSource));
  if (result.ok) {
    console.log(`${positional[0]}: verified (${result.manifest!.files.length} files, signed by ${result.manifest!.kid})`);
    return 0;
  }
  for (const problem of result.problems) console.log(`FAIL ${problem}`);
  return 1;
}

async function rotateCommand(config: Config): Promise<number> {
  await checkPostgres(config.DATABASE_OWNER_URL);
  const db = await createDb(config.DATABASE_OWNER_URL);
  try {
    const { kid } = await rotateKey(db, config.keyPepper);
    console.log(`new export signing key ${kid}; the retired one stays in /.well-known/tas-export-keys.json`);
    return 0;
  } finally {
    await db.end();
  }
}

async function revokeCommand(config: Config, kid: string): Promise<number> {
  await checkPostgres(config.DATABASE_OWNER_URL);
  const db = await createDb(config.DATABASE_OWNER_URL);
  try {
    const { revoked, replacedBy } = await revokeKey(db, config.keyPepper, kid);
    if (!revoked) {
      console.log(`no export signing key ${kid}`);
      return 1;
    }
    console.log(`export signing key ${kid} revoked: it verifies no bundle any more${replacedBy ? `; new signing key ${replacedBy}` : ''}`);
    return 0;
  } finally {
    await db.end();
  }
}
