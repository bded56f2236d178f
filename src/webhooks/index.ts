/** The webhooks capability's surface: the only file (with schemas.ts) that other folders import. */
export { isSealedUnderCurrent, openSecret, sealSecret } from './secret.js';
export { resealWebhookSecrets } from './reseal.js';
export type { ResealCount } from './reseal.js';
export { insecureTargetsPolicy } from './targets.js';
export { createWebhookAdmin } from './admin.js';
export type { Redelivery, WebhookAdmin, WebhookAdminDeps } from './admin.js';
