import { getServers } from 'node:dns';
import { constants } from 'node:fs';
import { access, stat, statfs } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { askService } from '../checks/rdapCheck.js';
import { createResolverCanary } from '../checks/resolverCanary.js';
import { ConfigError, loadConfig, redactUrl, type Config } from '../platform/config.js';
import { databaseIdentity, loginPowers } from '../platform/db/deployment.js';
import { createDb, poolerOptions, type Db } from '../platform/db/pool.js';
import { checkRedis } from '../platform/preflight.js';
import { createRedis, type RedisClient } from '../platform/redis/client.js';
import { prefixConflict, prefixOwner, prefixOwnerKey } from '../platform/redis/prefixOwner.js';
import { describeTopology } from '../platform/redis/topology.js';

/**
 * `tas doctor`: checks a deployment from where it runs, with its own
 * settings, and says what to fix. Each finding is ok, a warning (fine for
 * development, not for production) or a failure; the exit code is 1 when
 * any check failed. It changes nothing: it binds no prefix and makes no
 * directory.
 */
export type Verdict = 'ok' | 'warn' | 'FAIL' | 'skip';
export interface Finding {
  check: string;
  verdict: Verdict;
  says: string;
  fix?: string;
}

// Spooled audit rows are small (a few hundred bytes); this keeps hours of an outage's rows, with room for the OS.
const MIN_SPOOL_FREE_BYTES = 256 * 1024 * 1024;
// Long enough for a resolver or registry across the world, short enough that the doctor answers promptly.
const PROBE_TIMEOUT_MS = 3000;

export async function doctorCommand(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const findings = await diagnose(env);
  const production = env.NODE_ENV === 'production';
  // Unset is development, the default `npm start` and `tas serve` share (src/platform/config.ts).
  const nodeEnv = env.NODE_ENV ?? 'development, the default';
  console.log(`tas doctor (NODE_ENV=${nodeEnv}${production ? '' : ': warnings would be failures in production'})`);
  for (const f of findings) {
    console.log(`  ${f.verdict.padEnd(4)}  ${f.check.padEnd(15)} ${f.says}`);
    if (f.fix) console.log(`        ${''.padEnd(15)} fix: ${f.fix}`);
  }
  const failed = findings.filter((f) => f.verdict === 'FAIL').length;
  console.log(failed === 0 ? 'no failure' : `${failed} failure(s)`);
  return failed === 0 ? 0 : 1;
}

export async function diagnose(env: NodeJS.ProcessEnv): Promise<Finding[]> {
  const production = env.NODE_ENV === 'production';
  const findings: Finding[] = [];
  const loaded = loadLeniently(env);
  if ('error' in loaded) return [{ check: 'configuration', verdict: 'FAIL', says: loaded.error, fix: 'correct the setting it names' }];
  const config = loaded.config;
  findings.push(pepperFinding(env, config, production || loaded.pepperRefused));
  const redis = createRedis(config.redis);
  let db: Db | null = null;
  try {
    let identity: string | null = null;
    try {
      db = await createDb(config.DATABASE_URL, {
        ...poolerOptions(config.TAS_DB_POOLER),
        maximumPoolSize: 1,
        connectionTimeout: PROBE_TIMEOUT_MS,
      });
      identity = await databaseIdentity(db);
    } catch (error) {
      findings.push({
        check: 'database',
        verdict: 'FAIL',
        says: `cannot log in at ${redactUrl(config.DATABASE_URL)} (${describe(error)})`,
        fix: 'start PostgreSQL, run tas migrate, or correct DATABASE_URL',
      });
    }
    if (db !== null && identity !== null) findings.push(...(await loginFindings(db)));
    findings.push(...(await redisFindings(redis, config, identity)));
    findings.push(await resolverFinding(config, production));
    findings.push(await registryFinding(config, production));
    findings.push(await spoolFinding(config.TAS_SPOOL_DIR));
  } finally {
    await db?.end().catch(() => undefined);
    redis.disconnect();
  }
  return findings;
}

/**
 * The settings as the service would read them. A pepper the service would
 * refuse is one finding among others, not the end of the diagnosis, so the
 * rest is read as in development.
 */
function loadLeniently(env: NodeJS.ProcessEnv): { config: Config; pepperRefused: boolean } | { error: string } {
  try {
    return { config: loadConfig(env), pepperRefused: false };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    if (!/pepper/i.test(error.message)) return { error: error.message };
    try {
      return { config: loadConfig({ ...env, NODE_ENV: 'development' }), pepperRefused: true };
    } catch (again) {
      return { error: (again as Error).message };
    }
  }
}

/** `strict`: production, or a setting where the service itself refuses the development pepper. */
function pepperFinding(env: NodeJS.ProcessEnv, config: Config, strict: boolean): Finding {
  // The development pepper is the value a development configuration falls back to: public, in this repository.
  const developmentPepper = loadConfig({ NODE_ENV: 'development' }).keyPepper;
  const fix = 'set TAS_KEY_PEPPER to a secret of at least 32 characters (openssl rand -hex 32), the same on every process';
  if (env.TAS_KEY_PEPPER === undefined || config.keyPepper === developmentPepper) {
    const says =
      env.TAS_KEY_PEPPER === undefined
        ? 'TAS_KEY_PEPPER is not set: the public development pepper is used'
        : 'TAS_KEY_PEPPER is the public development pepper';
    return strict ? { check: 'pepper', verdict: 'FAIL', says, fix } : { check: 'pepper', verdict: 'warn', says, fix };
  }
  return { check: 'pepper', verdict: 'ok', says: `TAS_KEY_PEPPER is set (${config.keyPepper.length} characters)` };
}

async function loginFindings(db: Db): Promise<Finding[]> {
  const p = await loginPowers(db);
  const powers = [
    p.superuser && 'is a superuser',
    p.bypassrls && 'has BYPASSRLS',
    p.owns && "owns the service's tables",
    p.crosses && 'can become the cross-tenant role tas_system',
  ].filter((x): x is string => typeof x === 'string');
  if (powers.length === 0)
    return [
      {
        check: 'service login',
        verdict: 'ok',
        says: `DATABASE_URL logs in as ${p.login}: no superuser, owns nothing, cannot leave its tenant`,
      },
    ];
  return [
    {
      check: 'service login',
      verdict: 'FAIL',
      says: `DATABASE_URL logs in as ${p.login}, which ${powers.join(', ')}: row-level security would not hold it to one tenant`,
      fix: 'log in as tas_app in DATABASE_URL (ALTER ROLE tas_app PASSWORD ...); keep tas_ops for DATABASE_SYSTEM_URL and the owner for DATABASE_OWNER_URL',
    },
  ];
}

async function redisFindings(redis: RedisClient, config: Config, identity: string | null): Promise<Finding[]> {
  const where = config.redis.kind === 'single' ? config.REDIS_URL : describeTopology(config.redis);
  try {
    await checkRedis(redis, where);
  } catch (error) {
    return [
      {
        check: 'redis',
        verdict: 'FAIL',
        says: (error as Error).message.split('\n')[0]!,
        fix: 'start Redis or correct REDIS_URL (or REDIS_CLUSTER_NODES, REDIS_SENTINELS)',
      },
    ];
  }
  const prefix = config.TAS_REDIS_PREFIX;
  const owner = await prefixOwner(redis, prefix);
  if (identity === null)
    return [{ check: 'redis prefix', verdict: 'skip', says: `'${prefix}' (the database did not answer, so its owner cannot be compared)` }];
  if (owner === null)
    return [
      {
        check: 'redis prefix',
        verdict: 'ok',
        says: `'${prefix}' is not bound yet: the first start binds it to this database (${identity})`,
      },
    ];
  if (owner === identity)
    return [{ check: 'redis prefix', verdict: 'ok', says: `'${prefix}' belongs to this database (${prefixOwnerKey(prefix)})` }];
  return [
    {
      check: 'redis prefix',
      verdict: 'FAIL',
      says: prefixConflict(prefix, owner, identity).split(': set ')[0]!,
      fix: `set TAS_REDIS_PREFIX to a prefix of this deployment's own (or delete '${prefixOwnerKey(prefix)}' if this database replaced that one for good)`,
    },
  ];
}

async function resolverFinding(config: Config, production: boolean): Promise<Finding> {
  if (config.TAS_DNS_SERVERS === 'off') return { check: 'resolver', verdict: 'skip', says: 'TAS_DNS_SERVERS=off: no DNS check runs' };
  const servers =
    config.TAS_DNS_SERVERS === 'system'
      ? getServers()
      : config.TAS_DNS_SERVERS.split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  const name = config.TAS_DNS_CANARY === 'off' ? 'example.com' : config.TAS_DNS_CANARY;
  const canary = createResolverCanary({ servers, name, timeoutMs: PROBE_TIMEOUT_MS });
  const answered = await canary.trustworthy();
  const asked = `${servers.join(', ') || 'no resolver'} asked for ${name}`;
  if (answered) return { check: 'resolver', verdict: 'ok', says: `${asked}: an address` };
  const how = canary.lastAnswer() === 'silent' ? 'no answer' : 'a wrong answer';
  return {
    check: 'resolver',
    verdict: production ? 'FAIL' : 'warn',
    says: `${asked}: ${how}; the DNS checks would report absences`,
    fix: 'make the resolver reachable from this machine, or name one in TAS_DNS_SERVERS (host:port,...), or TAS_DNS_SERVERS=off',
  };
}

async function registryFinding(config: Config, production: boolean): Promise<Finding> {
  if (config.TAS_RDAP_BASE_URL === 'off')
    return { check: 'registry', verdict: 'skip', says: 'TAS_RDAP_BASE_URL=off: no domain age look-up' };
  const base = config.TAS_RDAP_BASE_URL.replace(/\/+$/, '');
  if ((await askService(base, PROBE_TIMEOUT_MS)) === 'up') return { check: 'registry', verdict: 'ok', says: `${base} answers` };
  return {
    check: 'registry',
    verdict: production ? 'FAIL' : 'warn',
    says: `${base} does not answer (or answers 5xx); domain age would be reported absent`,
    fix: 'let this machine reach the RDAP service over HTTPS, or set TAS_RDAP_BASE_URL to one it reaches, or off',
  };
}

/** The spool directory, or where it would be made: a directory this process may write, with room. */
async function spoolFinding(dir: string): Promise<Finding> {
  const fix = 'point TAS_SPOOL_DIR at a persistent, writable directory with at least 256 MiB free';
  let existing = resolve(dir);
  while (
    !(await stat(existing).then(
      () => true,
      () => false,
    ))
  )
    existing = dirname(existing);
  if (!(await stat(existing)).isDirectory())
    return { check: 'spool', verdict: 'FAIL', says: `TAS_SPOOL_DIR ${dir}: ${existing} is not a directory`, fix };
  if (
    !(await access(existing, constants.W_OK).then(
      () => true,
      () => false,
    ))
  )
    return { check: 'spool', verdict: 'FAIL', says: `TAS_SPOOL_DIR ${dir}: ${existing} is not writable`, fix };
  const fs = await statfs(existing);
  const free = fs.bavail * fs.bsize;
  const mib = Math.floor(free / 1024 / 1024);
  if (free < MIN_SPOOL_FREE_BYTES) return { check: 'spool', verdict: 'FAIL', says: `TAS_SPOOL_DIR ${dir}: ${mib} MiB free`, fix };
  return { check: 'spool', verdict: 'ok', says: `TAS_SPOOL_DIR ${dir}: writable, ${mib} MiB free` };
}

function describe(error: unknown): string {
  const e = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  return e.cause?.message ?? e.message ?? e.cause?.code ?? e.code ?? String(error);
}
