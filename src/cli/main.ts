import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { PreflightError } from '../preflight.js';
import { serveCommand, workerCommand } from './serve.js';
import { auditCommand, keyMintCommand, migrateCommand, tenantCreateCommand } from './operator.js';
import { UsageError } from './usageError.js';

const USAGE = `tas: the trust assessment service

  tas serve [--no-workers]     migrations, HTTP server and workers (PORT, HOST)
  tas worker                   workers only, for scaling out
  tas migrate                  apply sql/ migrations (creates the database if needed)
  tas tenant create --name NAME [--investigative] [--authorization REF] [--json]
  tas key mint --tenant ID --scopes a,b [--test] [--name NAME] [--json]
  tas score [FILE|-]           score an evidence file with the methodology (stdin when -)
  tas audit verify [--chain KEY]  recompute the audit hash chains; exit 1 at the first broken link
  tas calibration [--tenant ID] [--mode live|test] [--svg DIR]  calibration per methodology version
  tas export verify BUNDLE [--keys FILE|URL]   check an evidentiary bundle offline
  tas export rotate-key        retire the export signing key and make a new one

Configuration comes from the environment: DATABASE_URL, REDIS_URL, LOG_LEVEL,
TAS_KEY_PEPPER (required in production), PORT, HOST; see README.md.`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve': return await serveCommand(loadConfig(), flags(rest, { 'no-workers': { type: 'boolean' } }).values);
      case 'worker': return await workerCommand(loadConfig());
      case 'migrate': return await migrateCommand(loadConfig());
      case 'tenant': return await tenantCommand(rest);
      case 'key': return await keyCommand(rest);
      case 'audit': return await auditCommand(loadConfig(), rest);
      case 'calibration': return await (await import('./calibration.js')).calibrationCommand(loadConfig(), rest);
      case 'score': return await (await import('./score.js')).scoreMain(rest);
      case 'export': return await (await import('./export.js')).exportCommand(rest, loadConfig);
      case undefined: case 'help': case '--help': case '-h':
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

function flags<T extends Parameters<typeof parseArgs>[0] extends infer C ? C extends { options?: infer O } ? O : never : never>(args: string[], options: T) {
  try {
    // parseArgs types its result from a literal options object; ours is built per subcommand, so it is typed by hand here.
    return parseArgs({ args, options: options as never, allowPositionals: true, strict: true }) as { values: Record<string, string | boolean | undefined>; positionals: string[] };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

async function tenantCommand(args: string[]): Promise<number> {
  if (args[0] !== 'create') throw new UsageError('usage: tas tenant create --name NAME [--investigative] [--json]');
  const { values } = flags(args.slice(1), {
    name: { type: 'string' }, investigative: { type: 'boolean' }, authorization: { type: 'string' }, json: { type: 'boolean' },
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
    tenant: { type: 'string' }, scopes: { type: 'string' }, test: { type: 'boolean' }, name: { type: 'string' }, json: { type: 'boolean' },
  });
  if (typeof values.tenant !== 'string') throw new UsageError('--tenant is required');
  if (typeof values.scopes !== 'string') throw new UsageError('--scopes is required (comma-separated)');
  return keyMintCommand(loadConfig(), {
    tenantId: values.tenant,
    scopes: values.scopes.split(',').map((s) => s.trim()).filter(Boolean),
    mode: values.test === true ? 'test' : 'live',
    name: typeof values.name === 'string' ? values.name : 'minted by operator',
    json: values.json === true,
  });
}
