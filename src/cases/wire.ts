import { caseEventsPath, exportBundlePath } from './paths.js';
import type { CaseExportOut, CaseOut } from './schemas.js';
import type { CaseView } from './service.js';
import type { CaseExportView } from './export/exports.js';

/**
 * The case's answers as the wire carries them: a command's value with its
 * addresses, absolute under the public base. Each field is placed where the
 * schema has it, so a body reads as it always has, byte for byte.
 */
export function caseBody(view: CaseView, publicUrl: string): CaseOut {
  const { created_at, updated_at, closed_at, ...head } = view;
  return { ...head, events_url: `${publicUrl}${caseEventsPath(view.case_id)}`, created_at, updated_at, closed_at };
}

export function exportBody(view: CaseExportView, publicUrl: string): CaseExportOut {
  const { requested_at, ...head } = view;
  return {
    ...head,
    download_url: view.status === 'ready' ? `${publicUrl}${exportBundlePath(view.case_id, view.export_id)}` : null,
    // The download needs the tenant's key, so the address itself does not expire.
    expires_at: null,
    requested_at,
  };
}
