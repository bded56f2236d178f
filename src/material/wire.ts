import type { UploadGrant } from './declare.js';
import type { UploadTarget } from './schemas.js';

/**
 * Where and how to send a declared material's bytes: the route's part of the
 * declaration's answer (issue 49 item 5), from the grant the command issued.
 * The token is in the URL because an upload may come from a client that holds
 * no key (a browser handed the URL by its backend).
 */
export function uploadTargetOf(publicUrl: string, materialId: string, grant: UploadGrant): UploadTarget {
  return {
    url: `${publicUrl}/v1/material/${encodeURIComponent(materialId)}/content?token=${grant.token}`,
    method: 'PUT',
    headers: { 'Content-Type': grant.mediaType },
    expires_at: grant.expiresAt,
  };
}
