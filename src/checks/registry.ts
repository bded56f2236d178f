import { readdir } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CheckDefinition, Tier } from './types.js';

/**
 * Check discovery.
 *
 * Convention: every module in `src/checks/` is imported once at start-up
 * (`.ts` under tsx or vitest, `.js` when compiled; `.d.ts`, source maps and
 * tests are skipped). A module contributes checks by exporting any of:
 *
 *   - `check: CheckDefinition`                    one offline check;
 *   - `checks: readonly CheckDefinition[]`        several checks;
 *   - `createChecks(config: CheckDiscoveryConfig): CheckDefinition[] | Promise<CheckDefinition[]>`
 *     checks that need configuration (network checks), returning [] when
 *     their configuration is absent.
 *
 * Helper modules export none of these and contribute nothing, so adding a
 * check is adding a file. Modules must have no side effects at import beyond
 * building their definitions. Ids must be unique across all modules;
 * discovery throws on a duplicate rather than letting one check shadow another.
 */
export interface CheckDiscoveryConfig {
  /** Resolver addresses (`host:port`); DNS checks exist only when given. */
  dnsServers?: string[];
  /** A name the resolver must answer before DNS checks give negative evidence (TAS_DNS_CANARY). */
  dnsCanary?: string;
  /** RDAP service base URL; the domain-age check exists only when given. */
  rdapBaseUrl?: string;
  /** Path of the operator's HTTP providers description (JSON). */
  providersFile?: string;
  /** Path of a ranked popularity list (TAS_POPULARITY_LIST); the shipped list when absent (src/checks/popularity.ts). */
  popularityFile?: string;
  /** Path of a sanctions list in OFAC's sdn.csv layout (TAS_SANCTIONS_LIST); the shipped snapshot when absent (src/checks/sanctionsList.ts). */
  sanctionsFile?: string;
  networkTimeoutMs?: number;
  /** Approves each redirect a network check's service answers with (the outbound address guard); none: redirects are refused. */
  redirectGuard?: (target: URL) => Promise<boolean>;
  /** Told when a network check's dependency starts failing and when it answers again (for the operator's log). */
  onDependencyChange?: (checkId: string, state: 'open' | 'closed') => void;
}

export interface DiscoveryOptions {
  /** Folder to scan; defaults to this module's own folder. Tests point it at fixtures. */
  directory?: string;
}

const MODULE_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'];
const OWN_FILE = fileURLToPath(import.meta.url);

export async function discoverChecks(config: CheckDiscoveryConfig, options: DiscoveryOptions = {}): Promise<CheckDefinition[]> {
  const directory = options.directory ?? join(OWN_FILE, '..');
  const found: CheckDefinition[] = [];
  for (const file of await moduleFiles(directory)) {
    const exported = (await import(pathToFileURL(join(directory, file)).href)) as Record<string, unknown>;
    found.push(...(await checksExportedBy(exported, config, file)));
  }
  assertUniqueIds(found);
  return found.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Module files of a folder, one per stem: when both `x.ts` and `x.js` exist
 * (a build output next to its source) the one matching how this module itself
 * is running wins, so a stale build is never mixed with live sources.
 */
async function moduleFiles(directory: string): Promise<string[]> {
  const preferred = extname(OWN_FILE);
  const byStem = new Map<string, string>();
  for (const file of (await readdir(directory)).sort()) {
    const extension = extname(file);
    if (!MODULE_EXTENSIONS.includes(extension) || /\.d\.[mc]?ts$/.test(file) || /\.(test|spec)\./.test(file)) continue;
    const stem = file.slice(0, -extension.length);
    const current = byStem.get(stem);
    if (current === undefined || extension === preferred) byStem.set(stem, file);
  }
  return [...byStem.values()].sort();
}

async function checksExportedBy(exported: Record<string, unknown>, config: CheckDiscoveryConfig, file: string): Promise<CheckDefinition[]> {
  const checks: unknown[] = [];
  if ('check' in exported) checks.push(exported.check);
  if ('checks' in exported && Array.isArray(exported.checks)) checks.push(...(exported.checks as unknown[]));
  if (typeof exported.createChecks === 'function') {
    const created: unknown = await (exported.createChecks as (config: CheckDiscoveryConfig) => unknown)(config);
    if (!Array.isArray(created)) throw new Error(`createChecks in ${file} did not return an array of checks`);
    checks.push(...(created as unknown[]));
  }
  for (const candidate of checks) {
    if (!isCheckDefinition(candidate)) throw new Error(`${file} exports something that is not a check definition`);
  }
  return checks as CheckDefinition[];
}

function isCheckDefinition(value: unknown): value is CheckDefinition {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<CheckDefinition>;
  return (
    typeof candidate.id === 'string' &&
    typeof candidate.kind === 'string' &&
    typeof candidate.run === 'function' &&
    Array.isArray(candidate.artifactTypes) &&
    typeof candidate.timeoutMs === 'number' &&
    Array.isArray(candidate.declares)
  );
}

function assertUniqueIds(checks: readonly CheckDefinition[]): void {
  const seen = new Set<string>();
  for (const check of checks) {
    if (seen.has(check.id)) throw new Error(`Two checks share the id "${check.id}"; check ids must be unique`);
    seen.add(check.id);
  }
}

const TIER_RANK: Record<Tier, number> = { t0: 0, t1: 1, t2: 2 };

/** Checks that apply to a presentation type and that the inquiry's tier ceiling allows. */
export function applicableChecks(checks: readonly CheckDefinition[], presentationType: string, tierCeiling: Tier): CheckDefinition[] {
  return checks.filter((check) => check.artifactTypes.includes(presentationType) && TIER_RANK[check.tier] <= TIER_RANK[tierCeiling]);
}

/** Checks that apply to the type but that the tier ceiling puts out of reach (for `coverage.gaps`). */
export function checksBeyondCeiling(checks: readonly CheckDefinition[], presentationType: string, tierCeiling: Tier): CheckDefinition[] {
  return checks.filter((check) => check.artifactTypes.includes(presentationType) && TIER_RANK[check.tier] > TIER_RANK[tierCeiling]);
}
