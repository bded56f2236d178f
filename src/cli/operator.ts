import { z } from 'zod';
import type { Config } from '../platform/config.js';
import { migrate } from '../platform/db/migrate.js';
import { createDb, type Mode } from '../platform/db/pool.js';
import { tenantExists } from '../tenancy/store.js';
import { checkPostgres } from '../platform/preflight.js';
import { ALL_SCOPES } from '../schemas/operation.js';
import { mintKey } from '../tenancy/keys.js';
import { provisionTenant } from '../tenancy/provision.js';
import { UsageError } from './usageError.js';
import { sealAudit, verifyAuditChains } from '../audit/sealer.js';
import { auditPartitionsAhead, retainAudit } from '../audit/partitions.js';
import { trailVerifier } from '../audit/trailVerify.js';
import type { PublishedKey } from '../audit/sealSignature.js';
import { activeKey, publishedKeys } from '../cases/export/keys.js';
import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { loadKeys } from './export.js';
import { rotatePepper } from '../auth/rotatePepper.js';
import { resealSigningKeys } from '../cases/index.js';
import { resealWebhookSecrets } from '../webhooks/index.js';

export async function migrateCommand(config: Config): Promise<number> {
  await checkPostgres(config.DATABASE_OWNER_URL);
  const n = await migrate(config.DATABASE_OWNER_URL, (m) => console.log(`applied ${m}`));
  console.log(n === 0 ? 'database is up to date' : `${n} migration(s) applied`);
  return 0;
}

export async function tenantCreateCommand(
  config: Config,
  opts: { name: string; investigative: boolean; authorizationRef: string | null; json: boolean },
): Promise<number> {
  await checkPostgres(config.DATABASE_OWNER_URL);
  await migrate(config.DATABASE_OWNER_URL);
  const db = await createDb(config.DATABASE_OWNER_URL);
  try {
    if (await tenantExists(db, opts.name)) throw new UsageError(`a tenant named '${opts.name}' already exists`);
    const t = await provisionTenant(db, config.keyPepper, opts);
    if (opts.json) console.log(JSON.stringify(t));
    else printTenant(opts.name, t.tenant_id, t.keys);
    return 0;
  } finally {
    await db.end();
  }
}

export function printTenant(name: string, tenantId: string, keys: Record<string, string>): void {
  console.log(`tenant '${name}' created: ${tenantId}`);
  console.log('keys (shown once; store them now, they cannot be recovered):');
  for (const [k, v] of Object.entries(keys)) console.log(`  ${k.padEnd(11)} ${v}`);
}

const ScopeList = z.array(z.enum(ALL_SCOPES as [string, ...string[]])).min(1);

export async function keyMintCommand(
  config: Config,
  opts: { tenantId: string; scopes: string[]; mode: Mode; name: string; json: boolean },
): Promise<number> {
  const scopes = ScopeList.safeParse(opts.scopes);
  if (!scopes.success) throw new UsageError(`--scopes must be a comma-separated list of: ${ALL_SCOPES.join(', ')}`);
  if (!z.uuid().safeParse(opts.tenantId).success) throw new UsageError('--tenant must be a tenant id (uuid)');
  await checkPostgres(config.DATABASE_OWNER_URL);
  const db = await createDb(config.DATABASE_OWNER_URL);
  try {
    const key = await mintKey(db, config.keyPepper, { tenantId: opts.tenantId, mode: opts.mode, name: opts.name, scopes: scopes.data });
    if (opts.json) console.log(JSON.stringify({ key_id: key.keyId, key: key.token, mode: opts.mode, scopes: scopes.data }));
    else console.log(`key ${key.keyId} (${opts.mode}; ${scopes.data.join(', ')}), shown once:\n  ${key.token}`);
    return 0;
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code === '23503' || /foreign key/i.test((error as Error).message)) {
      throw new UsageError(`no tenant with id ${opts.tenantId}`);
    }
    throw error;
  } finally {
    await db.end();
  }
}

/**
 * `tas audit verify`: seals what is due (signing the seals with the export signing key), then recomputes every
 * chain of both trails (or one) from its first link, seals and their signatures included. `--file EXPORT`: a
 * tenant's exported trail (exportAudit), checked offline, no database, its seals' signatures against the
 * published keys (--keys FILE|URL, ./tas-export-keys.json by default, as `tas export verify`; --unsigned: not checked).
 */
const AUDIT_USAGE =
  'usage: tas audit verify [--chain KEY] | tas audit verify --file EXPORT [--keys FILE|URL | --unsigned] | tas audit retain --before YYYY-MM-DD';

export async function auditCommand(config: Config, args: string[]): Promise<number> {
  if (args[0] === 'retain') return auditRetainCommand(config, args);
  if (args[0] !== 'verify') throw new UsageError(AUDIT_USAGE);
  const fileAt = args.indexOf('--file');
  if (fileAt >= 0) {
    const file = args[fileAt + 1];
    const keysAt = args.indexOf('--keys');
    const keysSource = keysAt >= 0 ? args[keysAt + 1] : './tas-export-keys.json';
    if (file === undefined || keysSource === undefined || (keysAt >= 0 && args.includes('--unsigned'))) throw new UsageError(AUDIT_USAGE);
    return auditVerifyFile(file, args.includes('--unsigned') ? undefined : (await loadKeys(keysSource)).keys);
  }
  const chainAt = args.indexOf('--chain');
  const only = chainAt >= 0 ? args[chainAt + 1] : undefined;
  await checkPostgres(config.DATABASE_OWNER_URL);
  const db = await createDb(config.DATABASE_OWNER_URL);
  try {
    await sealAudit(db, undefined, () => activeKey(db, config.keyPepper));
    const verdicts = await verifyAuditChains(db, only, (await publishedKeys(db)).keys);
    for (const v of verdicts) {
      const unsigned = v.unsigned ? ` (${v.unsigned} seals not signed yet)` : '';
      console.log(`${v.chainKey}: ${v.rows} rows, ${v.brokenAt === null ? 'intact' : `BROKEN at position ${v.brokenAt}`}${unsigned}`);
    }
    return verdicts.some((v) => v.brokenAt !== null) ? 1 : 0;
  } finally {
    await db.end();
  }
}

/** `tas audit verify --file EXPORT`: the tenant's own check of its exported trail, from the file (and the published keys) alone. */
async function auditVerifyFile(file: string, keys: PublishedKey[] | undefined): Promise<number> {
  await access(file).catch(() => {
    throw new UsageError(`${file}: no such file`);
  });
  const verifier = trailVerifier(keys);
  // A line at a time: an export of a year is checked in the memory of one line and its seals.
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  try {
    for await (const line of lines) if (verifier.line(line) !== null) break;
  } finally {
    lines.close();
  }
  const v = verifier.end();
  const whose = `${v.tenantId ?? '?'}:${v.mode ?? '?'}`;
  if (v.fault === null) {
    console.log(
      `${whose}: ${v.rows} rows, ${v.seals} seals, intact${v.signaturesChecked ? ', every seal signed by the service' : ' (signatures not checked)'}`,
    );
    return 0;
  }
  const f = v.fault;
  const at = f.position === null ? '' : ` (position ${f.position}${f.auditId ? `, audit_id ${f.auditId}` : ''})`;
  console.log(`${whose}: BROKEN at line ${f.line}${at}: ${f.reason}: ${f.detail}`);
  return 1;
}

/** `tas audit retain --before YYYY-MM-DD`: drops the audit trail's whole months before that day (000090). */
async function auditRetainCommand(config: Config, args: string[]): Promise<number> {
  const at = args.indexOf('--before');
  const before = at >= 0 ? args[at + 1] : undefined;
  if (before === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(before)) throw new UsageError('usage: tas audit retain --before YYYY-MM-DD');
  await checkPostgres(config.DATABASE_OWNER_URL);
  await migrate(config.DATABASE_OWNER_URL);
  const db = await createDb(config.DATABASE_OWNER_URL);
  try {
    await sealAudit(db);
    const dropped = await retainAudit(db, before);
    await auditPartitionsAhead(db);
    console.log(dropped.length === 0 ? 'no whole month to drop' : `dropped: ${dropped.join(', ')}`);
    return 0;
  } finally {
    await db.end();
  }
}

/** `tas keys rotate-pepper`: re-seals under TAS_KEY_PEPPER what TAS_KEY_PEPPER_PREVIOUS (or the older derivation) sealed. */
export async function rotatePepperCommand(config: Config, opts: { json: boolean }): Promise<number> {
  await checkPostgres(config.DATABASE_OWNER_URL);
  const db = await createDb(config.DATABASE_OWNER_URL);
  try {
    const r = await rotatePepper(db, config.keyring, { webhookSecrets: resealWebhookSecrets, exportKeys: resealSigningKeys });
    if (opts.json) console.log(JSON.stringify(r));
    else {
      console.log(`current pepper ${r.pepperId}`);
      console.log(`webhook endpoints: ${r.webhookSecrets.resealed} re-sealed, ${r.webhookSecrets.current} already current`);
      console.log(`export signing keys: ${r.exportKeys.resealed} re-sealed, ${r.exportKeys.current} already current`);
      console.log(
        `API keys still hashed under an earlier pepper: ${r.apiKeysWaiting} (each moves on its next use; keep TAS_KEY_PEPPER_PREVIOUS until 0)`,
      );
      for (const u of r.unopenable) console.error(`cannot open ${u} with either pepper`);
    }
    return r.unopenable.length === 0 ? 0 : 1;
  } finally {
    await db.end();
  }
}
