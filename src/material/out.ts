import type { ExtractionRow, MaterialRow } from './store.js';
import type { ExtractionOut, MaterialOut, UploadTarget } from './schemas.js';

/** Rows to the closed response shapes of src/material/schemas.ts. */
/** `upload` only in the answer to the declaration: the URL's secret is not kept, so it cannot be shown again. */
export function materialOut(row: MaterialRow, upload: UploadTarget | null = null): MaterialOut {
  return {
    material_id: row.id,
    kind: row.kind,
    media_type: row.media_type,
    status: row.status,
    sha256: row.sha256,
    size_bytes: row.size,
    retention_mode: row.retention_mode,
    data_class: row.data_class,
    case_id: row.case_id,
    upload,
    failure_reason: row.failure_reason,
    derivation: {
      extractor_version: row.extractor_version,
      extracted_at: row.extracted_at,
      items: row.items,
      outcomes_only: row.data_class === 'C2',
      bytes_stored: row.bytes_stored,
    },
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function extractionOut(row: MaterialRow, items: readonly ExtractionRow[]): ExtractionOut {
  return {
    material_id: row.id,
    status: row.status,
    extractor_version: row.extractor_version,
    outcomes_only: row.data_class === 'C2',
    items: items.map((i) => ({
      type: i.type,
      value: i.value,
      binding: {
        binding_id: i.binding_id,
        target_kind: i.target_kind,
        target_id: i.target_id,
        locator_kind: i.locator_kind,
        locator: i.locator,
        confidence: i.confidence,
      },
    })),
  };
}
