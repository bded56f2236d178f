import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../platform/config.js';
import { PreflightError } from '../platform/preflight.js';
import { serveCommand, workerCommand } from './serve.js';
import { auditCommand, keyMintCommand, migrateCommand, rotatePepperCommand, tenantCreateCommand } from './operator.js';
import { UsageError } from './usageError.js';

const USAGE = `tas: the trust assessment service

  tas serve [--no-workers]     migrations, HTTP server and workers (PORT, HOST)
  tas worker                   workers only, for scaling out
  tas migrate                  apply sql/ migrations (creates the database if needed)
  tas tenant create --name NAME [--investigative] [--authorization REF] [--json]
  tas key mint --tenant ID --scopes a,b [--test] [--name NAME] [--json]
  tas keys rotate-pepper       re-seal webhook secrets and export keys under TAS_KEY_PEPPER
  tas score [FILE|-]           score an evidence file with the methodology (stdin when -)
  tas audit verify [--chain KEY]  recompute the audit hash chains; exit 1 at the first broken link
  tas audit verify --file EXPORT [--keys FILE|URL]  check a tenant's exported audit trail offline, seals' signatures included
  tas audit retain --before DATE  drop the audit trail's whole months before DATE (YYYY-MM-DD)
  tas calibration [--tenant ID] [--mode live|test] [--svg DIR]  calibration per methodology version
  tas export verify BUNDLE [--keys FILE|URL]   check an evidentiary bundle offline
  tas export rotate-key        retire the export signing key and make a new one
  tas export revoke-key KID    revoke an export signing key (no bundle verifies under it)
  tas doctor                   check this deployment's settings, database login, Redis prefix, resolver,
                               registry and spool, and say what to fix; exit 1 on a failure

Configuration comes from the environment: DATABASE_URL, REDIS_URL, LOG_LEVEL,
TAS_KEY_PEPPER (required outside development and test; NODE_ENV unset is development, on loopback
only), PORT, HOST; see README.md. A Redis
Cluster: REDIS_CLUSTER_NODES; Sentinel: REDIS_SENTINELS and REDIS_SENTINEL_NAME;
behind PgBouncer in transaction mode: TAS_DB_POOLER=transaction (docs/scaling.md).`;

/** Each subcommand's own help, with an example: `tas <command> --help`. */
const HELP: Record<string, string> = {
  serve:
    'tas serve [--no-workers]\n  migrations, the HTTP server and (unless --no-workers) the workers; PORT and HOST say where.\n\nexample:\n  PORT=8080 tas serve',
  worker: 'tas worker\n  the workers only, for scaling out beside servers started with --no-workers.\n\nexample:\n  tas worker',
  migrate:
    'tas migrate\n  applies sql/ migrations in order, creating the database if needed.\n\nexample:\n  DATABASE_URL=postgres://postgres@127.0.0.1:5432/tas tas migrate',
  tenant:
    'tas tenant create --name NAME [--investigative] [--authorization REF] [--json]\n  creates a tenant with its four keys (shown once).\n\nexample:\n  tas tenant create --name acme --json',
  key: 'tas key mint --tenant ID --scopes a,b [--test] [--name NAME] [--json]\n  mints a key for a tenant (shown once).\n\nexample:\n  tas key mint --tenant 0b0e0d2c-95a4-4d7c-9a53-4b7ad0c0ffee --scopes inquiries,findings --test',
  keys: 'tas keys rotate-pepper [--json]\n  with TAS_KEY_PEPPER the new pepper and TAS_KEY_PEPPER_PREVIOUS the old one: re-seals every webhook\n  secret and export signing key in place and counts the API keys still hashed under the old pepper\n  (each moves on its next use). Exit 1 when a row opens under neither pepper.\n\nexample:\n  TAS_KEY_PEPPER=$NEW TAS_KEY_PEPPER_PREVIOUS=$OLD tas keys rotate-pepper',
  score:
    'tas score [FILE|-]\n  the methodology over an evidence file or a served ledger entry (stdin with -): the version it names\n  (trust-method/1, /2 or /3; absent: the current one); an entry is compared with its published score,\n  interval and evidence summary (reproduces: true|false).\n\nexample:\n  curl -s -H "Authorization: Bearer $KEY" $TAS/v1/entities/$ID/ledger | jq \'.[0]\' | tas score -',
  audit:
    "tas audit verify [--chain KEY]\n  seals what is due and recomputes every audit hash chain (each tenant's and the anonymous one) and their\n  seals; exit 1 at the first broken link.\ntas audit verify --file EXPORT [--keys FILE|URL | --unsigned]\n  checks a tenant's exported trail (GET /v1/admin/audit/export) offline, from the file and the published\n  keys alone (./tas-export-keys.json by default, as tas export verify); exit 1 at the first row or seal\n  that breaks it, named by line, position and audit_id.\ntas audit retain --before YYYY-MM-DD\n  drops every whole month of the audit trail before that day (a month with rows not yet sealed is kept);\n  the chains still verify across what was dropped.\n\nexample:\n  tas audit verify\n  tas audit verify --file acme-2026-11.ndjson --keys https://tas.example/.well-known/tas-export-keys.json\n  tas audit retain --before 2026-01-01",
  doctor:
    'tas doctor\n  checks the deployment these settings describe: the key pepper (set, not the development one), the\n  service login (no superuser, owner or cross-tenant role), the Redis prefix (bound to this database),\n  the DNS resolver and the RDAP service (reachable), the spool directory (writable, with room).\n  Each finding is ok, warn (a failure in production) or FAIL, with what to fix; exit 1 on a failure.\n\nexample:\n  NODE_ENV=production tas doctor',
  calibration:
    'tas calibration [--tenant ID] [--mode live|test] [--svg DIR]\n  Brier score, ECE and the reliability table per methodology version; a plot per version in DIR.\n\nexample:\n  tas calibration --mode live --svg ./calibration',
};

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== undefined && HELP[command] !== undefined && (rest.includes('--help') || rest.includes('-h'))) {
    console.log(HELP[command]);
    return 0;
  }
  try {
    switch (command) {
      case 'serve':
        return await serveCommand(loadConfig(), flags(rest, { 'no-workers': { type: 'boolean' } }).values);
      case 'worker':
        return await workerCommand(loadConfig());
      case 'migrate':
        return await migrateCommand(loadConfig());
      case 'tenant':
        return await tenantCommand(rest);
      case 'key':
        return await keyCommand(rest);
      case 'keys':
        if (rest[0] !== 'rotate-pepper') throw new UsageError('usage: tas keys rotate-pepper [--json]');
        return await rotatePepperCommand(loadConfig(), { json: rest.includes('--json') });
      case 'audit':
        return await auditCommand(loadConfig(), rest);
      case 'doctor':
        return await (await import('./doctor.js')).doctorCommand();
      case 'calibration':
        return await (await import('./calibration.js')).calibrationCommand(loadConfig(), rest);
      case 'score':
        return await (await import('./score.js')).scoreMain(rest);
      case 'export':
        return await (await import('./export.js')).exportCommand(rest, loadConfig);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        console.log(USAGE);
        return command === undefined ? 2 : 0;
      default:
        console.error(`tas: unknown command '${command}'\n\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    if (error instanceof ConfigError || error instanceof PreflightError || error instanceof UsageError) {
      console.error(`tas: ${error.message}`);
      return 2;
    }
    console.error(`tas: ${(error as Error).stack ?? String(error)}`);
    return 1;
  }
}

function flags<T extends (Parameters<typeof parseArgs>[0] extends infer C ? (C extends { options?: infer O } ? O : never) : never)>(
  args: string[],
  options: T,
) {
  try {
    // parseArgs types its result from a literal options object; ours is built per subcommand, so it is typed by hand here.
    return parseArgs({ args, options: options as never, allowPositionals: true, strict: true }) as {
      values: Record<string, string | boolean | undefined>;
      positionals: string[];
    };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

async function tenantCommand(args: string[]): Promise<number> {
  if (args[0] !== 'create') throw new UsageError('usage: tas tenant create --name NAME [--investigative] [--json]');
  const { values } = flags(args.slice(1), {
    name: { type: 'string' },
    investigative: { type: 'boolean' },
    authorization: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (typeof values.name !== 'string' || values.name.trim() === '') throw new UsageError('--name is required');
  return tenantCreateCommand(loadConfig(), {
    name: values.name.trim(),
    investigative: values.investigative === true,
    authorizationRef: typeof values.authorization === 'string' ? values.authorization : null,
    json: values.json === true,
  });
}

async function keyCommand(args: string[]): Promise<number> {
  if (args[0] !== 'mint') throw new UsageError('usage: tas key mint --tenant ID --scopes a,b [--test] [--json]');
  const { values } = flags(args.slice(1), {
    tenant: { type: 'string' },
    scopes: { type: 'string' },
    test: { type: 'boolean' },
    name: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (typeof values.tenant !== 'string') throw new UsageError('--tenant is required');
  if (typeof values.scopes !== 'string') throw new UsageError('--scopes is required (comma-separated)');
  return keyMintCommand(loadConfig(), {
    tenantId: values.tenant,
    scopes: values.scopes
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    mode: values.test === true ? 'test' : 'live',
    name: typeof values.name === 'string' ? values.name : 'minted by operator',
    json: values.json === true,
  });
}
