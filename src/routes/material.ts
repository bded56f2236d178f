import { randomBytes, randomUUID } from 'node:crypto';
import { findMaterial, insertExtractions, insertMaterial, insertMaterialContent, listExtractions, type NewExtraction } from '../db/material.js';
import { withTenant, type Db } from '../db/pool.js';
import type { Handler } from '../http/handler.js';
import { ServiceProblem, ValidationFailure } from '../platform/problems.js';
import { fingerprintOf, sha256Hex, TEXT_EXTRACTOR_VERSION } from '../material/extractText.js';
import { extractText } from '../material/extractOffLoop.js';
import { extractionOut, materialOut } from '../material/out.js';
import type { MaterialCreate } from '../schemas/material.js';
import { requirePrincipal } from '../auth/principal.js';
import { PURPOSE_REFUSAL } from '../inquiries/admit.js';
import type { PolicyCache } from '../policies/cache.js';
import { allows } from '../policies/evaluate.js';
import type { RegistryCache } from '../registry/cache.js';

/**
 * POST /v1/material, GET /v1/material/{material_id} and its /extraction.
 *
 * Inline text is hashed, extracted synchronously and answered `extracted`.
 * Its raw text is stored by hash only under retention_mode=standard; under
 * transient only the hash, the size and the derived items are kept (rule D35).
 * C2 material is extracted to outcomes only: no raw text, and each item keeps
 * a fingerprint in place of its value.
 *
 * Declared bytes (the signed-upload path) are not served yet and are refused
 * with a 422 on `sha256`.
 */
export interface MaterialDeps {
  db: Db;
  registry: RegistryCache;
  policies: PolicyCache;
}

function newMaterialId(): string {
  return `mat_${randomBytes(16).toString('base64url')}`;
}

function createMaterial(deps: MaterialDeps): Handler {
  return async (ctx) => {
    const principal = requirePrincipal(ctx);
    const body = ctx.body as MaterialCreate;
    ctx.audit.target_kind = 'material';
    ctx.audit.purpose = body.purpose;
    // Material is declared for a purpose like any inquiry: granted and allowed, or the same I13 refusal.
    const [grants, policy] = await Promise.all([deps.registry.grants(principal), deps.policies.current(principal)]);
    if (!grants.purposes.has(body.purpose) || !allows(policy?.body ?? null, { purpose: body.purpose, intent: '' }).purpose) throw PURPOSE_REFUSAL;
    if (body.text === undefined) {
      throw new ValidationFailure([{
        loc: ['body', 'sha256'], type: 'not_supported',
        msg: 'Uploading bytes by hash is not available yet; give kind text with inline text.',
      }]);
    }
    const text = body.text;
    const sha256 = sha256Hex(text);
    const size = Buffer.byteLength(text, 'utf8');
    const outcomesOnly = body.data_class === 'C2';
    const storeContent = body.retention_mode === 'standard' && !outcomesOnly;
    const scope = { tenantId: principal.tenantId, mode: principal.mode };
    const extractions: NewExtraction[] = (await extractText(text)).map((x, seq) => ({
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
    const id = newMaterialId();
    ctx.audit.target_id = id;
    const row = await withTenant(deps.db, principal, async (tx) => {
      if (storeContent) await insertMaterialContent(tx, { ...scope, sha256, size, content: text });
      const inserted = await insertMaterial(tx, {
        id, ...scope, kind: body.kind, mediaType: body.media_type, purpose: body.purpose, sha256, size,
        retentionMode: body.retention_mode, dataClass: body.data_class, consentRef: body.consent_ref ?? null,
        caseId: body.case_id ?? null, status: 'extracted', extractorVersion: TEXT_EXTRACTOR_VERSION,
        extractedAt: new Date().toISOString(), items: extractions.length, bytesStored: storeContent,
      });
      await insertExtractions(tx, { ...scope, materialId: id }, extractions);
      await ctx.auditInTx(tx, 201);
      return inserted;
    });
    return { status: 201, body: materialOut(row) };
  };
}

function getMaterial(deps: MaterialDeps): Handler {
  return async (ctx) => {
    const principal = requirePrincipal(ctx);
    const id = ctx.params.material_id!;
    ctx.audit.target_kind = 'material';
    ctx.audit.target_id = id;
    const row = await withTenant(deps.db, principal, (tx) => findMaterial(tx, id));
    // Unknown, or another tenant's or mode's: the same 404.
    if (!row) throw new ServiceProblem('not-found', 'No such material.');
    return { status: 200, body: materialOut(row) };
  };
}

function getExtraction(deps: MaterialDeps): Handler {
  return async (ctx) => {
    const principal = requirePrincipal(ctx);
    const id = ctx.params.material_id!;
    ctx.audit.target_kind = 'material';
    ctx.audit.target_id = id;
    const found = await withTenant(deps.db, principal, async (tx) => {
      const row = await findMaterial(tx, id);
      return row ? { row, items: await listExtractions(tx, id) } : null;
    });
    if (!found) throw new ServiceProblem('not-found', 'No such material.');
    return { status: 200, body: extractionOut(found.row, found.items) };
  };
}

export function materialHandlers(deps: MaterialDeps): [string, Handler][] {
  return [
    ['createMaterial', createMaterial(deps)],
    ['getMaterial', getMaterial(deps)],
    ['getMaterialExtraction', getExtraction(deps)],
  ];
}
