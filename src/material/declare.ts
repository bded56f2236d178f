import { randomBytes, randomUUID } from 'node:crypto';
import type { Principal } from '../auth/index.js';
import { admit } from '../policies/index.js';
import type { CallContext } from '../auth/index.js';
import { insertExtractions, insertMaterial, insertMaterialContent, type MaterialRow, type NewExtraction } from './store.js';
import { setUploadToken } from './bytesStore.js';
import { withTenant, type Db } from '../platform/db/pool.js';
import type { PolicyCache } from '../policies/index.js';
import type { RegistryCache } from '../registry/index.js';
import type { MaterialCreate } from './schemas.js';
import { extractText } from './extractOffLoop.js';
import { regionOptions } from './extractors/types.js';
import { fingerprintOf, sha256Hex, TEXT_EXTRACTOR_VERSION } from './extractText.js';
import { issueUploadToken } from './upload.js';

/**
 * Declaring material (`POST /v1/material`), HTTP-free.
 *
 * Inline text is hashed, extracted at once and answered `extracted`; its raw
 * text is stored by hash only under retention_mode=standard (rule D35). A
 * declaration by hash is answered `awaiting_upload` with a signed,
 * single-use, expiring URL for the bytes (src/material/upload.ts); a worker
 * extracts them once they arrive. C2 material is extracted to outcomes only:
 * each item keeps a fingerprint in place of its value.
 */
export interface DeclareDeps {
  db: Db;
  registry: RegistryCache;
  policies: PolicyCache;
  now?: () => Date;
}

/** What a declared upload may do: the one-time token it was issued, until when, and the bytes' type. The route builds its URL. */
export interface UploadGrant {
  token: string;
  mediaType: string;
  expiresAt: string;
}

export interface Declared {
  row: MaterialRow;
  upload: UploadGrant | null;
}

function newMaterialId(): string {
  return `mat_${randomBytes(16).toString('base64url')}`;
}

export async function declareMaterial(deps: DeclareDeps, call: CallContext, principal: Principal, body: MaterialCreate): Promise<Declared> {
  call.audit.target_kind = 'material';
  call.audit.purpose = body.purpose;
  // Material is declared for a purpose like any inquiry: granted and allowed, or the same I13 refusal.
  await admit(deps, principal, { purpose: body.purpose, presentations: body.subject?.presentations ?? [] });
  const id = newMaterialId();
  call.audit.target_id = id;
  const region = await phoneRegionFor(deps, principal, body);
  return body.text !== undefined
    ? declareText(deps, call, principal, body, body.text, id, region)
    : declareUpload(deps, call, principal, body, id, region);
}

/**
 * The region national-format phone numbers in the material are read in: the
 * country its subject claims, else the tenant's policy `default_region`.
 * Fixed at declaration, so bytes extracted later by the worker read the same.
 */
async function phoneRegionFor(deps: DeclareDeps, principal: Principal, body: MaterialCreate): Promise<string | null> {
  return body.subject?.claim?.country ?? (await deps.policies.current(principal))?.body.default_region ?? null;
}

function baseRow(principal: Principal, body: MaterialCreate, id: string, region: string | null) {
  return {
    id,
    tenantId: principal.tenantId,
    mode: principal.mode,
    kind: body.kind,
    mediaType: body.media_type,
    purpose: body.purpose,
    retentionMode: body.retention_mode,
    dataClass: body.data_class,
    consentRef: body.consent_ref ?? null,
    caseId: body.case_id ?? null,
    phoneRegion: region,
  };
}

async function declareText(
  deps: DeclareDeps,
  call: CallContext,
  principal: Principal,
  body: MaterialCreate,
  text: string,
  id: string,
  region: string | null,
): Promise<Declared> {
  const sha256 = sha256Hex(text);
  const size = Buffer.byteLength(text, 'utf8');
  const outcomesOnly = body.data_class === 'C2';
  const storeContent = body.retention_mode === 'standard' && !outcomesOnly;
  const scope = { tenantId: principal.tenantId, mode: principal.mode };
  const extractions: NewExtraction[] = (await extractText(text, regionOptions(region))).map((x, seq) => ({
    bindingId: randomUUID(),
    seq,
    type: x.type,
    value: outcomesOnly ? null : x.normalised,
    targetKind: outcomesOnly ? 'fingerprint' : 'artifact',
    targetId: outcomesOnly ? fingerprintOf(scope, x.type, x.normalised) : `${x.type}:${x.normalised}`,
    locatorKind: 'text',
    locator: { start: x.start, end: x.end },
    confidence: x.confidence,
  }));
  const row = await withTenant(deps.db, principal, async (tx) => {
    if (storeContent) await insertMaterialContent(tx, { ...scope, sha256, size, content: text });
    const inserted = await insertMaterial(tx, {
      ...baseRow(principal, body, id, region),
      sha256,
      size,
      status: 'extracted',
      extractorVersion: TEXT_EXTRACTOR_VERSION,
      extractedAt: new Date().toISOString(),
      items: extractions.length,
      bytesStored: storeContent,
    });
    await insertExtractions(tx, { ...scope, materialId: id }, extractions);
    await call.auditInTx(tx, 'created');
    return inserted;
  });
  return { row, upload: null };
}

async function declareUpload(
  deps: DeclareDeps,
  call: CallContext,
  principal: Principal,
  body: MaterialCreate,
  id: string,
  region: string | null,
): Promise<Declared> {
  const issued = issueUploadToken(principal, (deps.now ?? (() => new Date()))());
  const row = await withTenant(deps.db, principal, async (tx) => {
    const inserted = await insertMaterial(tx, {
      ...baseRow(principal, body, id, region),
      sha256: body.sha256!,
      size: body.size_bytes!,
      status: 'awaiting_upload',
      extractorVersion: null,
      extractedAt: null,
      items: 0,
      bytesStored: false,
    });
    await setUploadToken(tx, id, issued.tokenHash, issued.expiresAt);
    await call.auditInTx(tx, 'created');
    return inserted;
  });
  return { row, upload: { token: issued.token, mediaType: body.media_type, expiresAt: issued.expiresAt } };
}
