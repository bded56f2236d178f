import { createRequire } from 'node:module';
import type { DataSource } from './types.js';

/**
 * The email checks' lists, from maintained data packages pinned in
 * package.json (exact versions; their licences are listed in the README and
 * docs/checks.md). Loaded once at start-up into Sets: O(1) look-ups.
 *
 * - disposable inbox domains: mailchecker (MIT), about 56,000 curated domains,
 *   and disposable-domains (MIT), about 134,000 domains aggregated from the
 *   public lists; both are read as suffixes (a listed domain's sub-domains
 *   are listed too);
 * - free consumer mailbox providers: email-providers (ISC), its "common" list
 *   and its full list less anything disposable;
 * - role mailboxes: role-based-email-addresses (MIT), about 1,000 local parts.
 *
 * The provider lists include throw-away services among their "common"
 * providers, so the curated disposable list wins where they overlap; the
 * aggregated list does not (it names a few real providers, such as
 * 21cn.com, among hundreds of thousands of entries). A test holds that the
 * large providers (gmail.com, outlook.com...) are never disposable.
 */
const require = createRequire(import.meta.url);

const mailchecker = require('mailchecker/platform/node') as { blacklist(): Set<string> };
const aggregatedDisposable = require('disposable-domains') as string[];
const providers = require('email-providers/all.json') as string[];
const commonProviders = require('email-providers/common.json') as string[];
const roleParts = require('role-based-email-addresses') as string[];

function versionOf(name: string): string {
  return (require(`${name}/package.json`) as { version: string }).version;
}

export const DISPOSABLE_SOURCES: readonly DataSource[] = [
  { name: 'mailchecker', version: versionOf('mailchecker'), licence: 'MIT' },
  { name: 'disposable-domains', version: versionOf('disposable-domains'), licence: 'MIT' },
];
export const FREE_MAIL_SOURCE: DataSource = { name: 'email-providers', version: versionOf('email-providers'), licence: 'ISC' };
export const ROLE_SOURCE: DataSource = {
  name: 'role-based-email-addresses',
  version: versionOf('role-based-email-addresses'),
  licence: 'MIT',
};

const lower = (domains: Iterable<string>) => [...domains].map((d) => d.trim().toLowerCase()).filter((d) => d.length > 0);

const curatedDisposable = new Set(lower(mailchecker.blacklist()));

/** The common consumer providers (gmail.com, outlook.com...), less throw-away ones: imitated like brands. */
export const COMMON_FREE_MAIL: ReadonlySet<string> = new Set(lower(commonProviders).filter((d) => !curatedDisposable.has(d)));

/** Throw-away inbox services: anyone can read or create an address there without owning anything. */
export const DISPOSABLE_EMAIL_DOMAINS: ReadonlySet<string> = new Set([
  ...curatedDisposable,
  ...lower(aggregatedDisposable).filter((d) => !COMMON_FREE_MAIL.has(d)),
]);

/** Consumer mailbox providers: anyone can open an account, so the domain says nothing about an organisation. */
export const FREE_MAIL_DOMAINS: ReadonlySet<string> = new Set(lower(providers).filter((d) => !DISPOSABLE_EMAIL_DOMAINS.has(d)));

/** Local parts that name a function or a shared mailbox rather than a person. */
export const ROLE_LOCAL_PARTS: ReadonlySet<string> = new Set(lower(roleParts));

/**
 * Whether the host, or a parent of it down to its registrable domain, is a
 * disposable inbox service: services hand out sub-domains (`x.mailinator.com`).
 * Never a public suffix itself (`co.uk` is nobody's service).
 */
export function isDisposableDomain(host: string, registrable: string | null): boolean {
  if (registrable === null) return DISPOSABLE_EMAIL_DOMAINS.has(host);
  let current = host;
  for (;;) {
    if (DISPOSABLE_EMAIL_DOMAINS.has(current)) return true;
    if (current === registrable || !current.endsWith(`.${registrable}`)) return false;
    current = current.slice(current.indexOf('.') + 1);
  }
}
