import type { Config } from '../platform/config.js';
import { withSystem, type Db } from '../platform/db/pool.js';
import { tenantIdByName } from '../tenancy/store.js';
import { firstInquiryCurl } from '../edge/pages/firstInquiry.js';
import { OCR_INSTALL_HINT, type OcrHealth } from '../material/ocr.js';
import { NON_ADMIN_SCOPES } from '../schemas/operation.js';
import { mintKey } from '../tenancy/keys.js';

/**
 * What `tas serve` prints once it answers (issue 38): where to go, and a first
 * inquiry that works as printed. Outside production the start provides the
 * test key for it: the demo tenant's own on the run that created it, and on
 * later runs a fresh test key of that tenant that expires after a day (the
 * first run's keys were shown once and are not kept anywhere to show again).
 */
export const BANNER_KEY_NAME = 'first inquiry (tas serve)';
// Long enough for a day's trying; short enough that a key printed to a terminal is soon worthless.
const BANNER_KEY_TTL_MS = 24 * 3600 * 1000;

export const PAGES: readonly [string, string][] = [
  ['index', '/'],
  ['API reference', '/docs'],
  ['console', '/console'],
  ['session example', '/examples/session'],
  ['health', '/healthz'],
];

/** A test key of the demo tenant for the banner, or null when there is no demo tenant (a database made by `tas tenant create`). */
export async function bannerKey(db: Db, config: Config, now = new Date()): Promise<string | null> {
  return withSystem(db, async (tx) => {
    const tenantId = await tenantIdByName(tx, 'demo');
    if (tenantId === null) return null;
    const expiresAt = new Date(now.getTime() + BANNER_KEY_TTL_MS).toISOString();
    return (await mintKey(tx, config.keyPepper, { tenantId, mode: 'test', name: BANNER_KEY_NAME, scopes: NON_ADMIN_SCOPES, expiresAt }))
      .token;
  });
}

/** `listening` is the address bound (bench/lib/service.ts reads its port); `baseUrl` the public one the links use. */
export function bannerText(listening: string, baseUrl: string, key: { token: string; expires: boolean } | null, ocr: OcrHealth): string {
  const width = Math.max(...PAGES.map(([name]) => name.length));
  const lines = [`tas listening on ${listening}`, ...PAGES.map(([name, path]) => `  ${name.padEnd(width)}  ${baseUrl}${path}`), ''];
  if (key) {
    lines.push(`A first inquiry, with a test key of the demo tenant${key.expires ? ' (this key expires in 24 h)' : ''}:`);
    lines.push(firstInquiryCurl(baseUrl, key.token), '');
  } else {
    lines.push('A first inquiry (make a tenant and its keys with `tas tenant create --name NAME`, then set TAS_KEY to its test key):');
    lines.push(firstInquiryCurl(baseUrl, '$TAS_KEY'), '');
  }
  if (ocr === 'unavailable')
    lines.push(`Text in images will not be extracted: tesseract with English data is missing; ${OCR_INSTALL_HINT}.`, '');
  return lines.join('\n');
}
