import type { Db } from '../platform/db/pool.js';
import type { Handler } from '../edge/handler.js';
import { ServiceProblem } from '../platform/problems.js';
import { declareMaterial, type DeclareDeps } from './declare.js';
import type { MaterialJob } from './extraction.js';
import { materialOut } from './out.js';
import { receiveUpload } from './upload.js';
import { viewExtraction, viewMaterial } from './reads.js';
import { uploadTargetOf } from './wire.js';
import type { MaterialCreate } from './schemas.js';
import { requirePrincipal } from '../auth/index.js';
import { targetOf } from '../edge/target.js';

/**
 * The material operations: parse, call the material commands
 * (src/material/), answer. Uploaded bytes are extracted by the material
 * worker; the job is queued after the upload commits, and again whenever a
 * read finds the material still `received` (a queue that lost the job, say),
 * which is harmless because the job id is the material id and the command
 * ignores material it already finished.
 */
export interface MaterialDeps extends DeclareDeps {
  db: Db;
  /** The service's public base URL, for the upload URL. */
  publicUrl: () => string;
  enqueueExtraction: (job: MaterialJob) => Promise<void>;
  /** Where upload bodies are staged before their one transaction (src/material/upload.ts). */
  uploadStagingDir?: string;
}

function createMaterial(deps: MaterialDeps): Handler {
  return async (ctx) => {
    const principal = requirePrincipal(ctx);
    const { row, upload } = await declareMaterial(deps, ctx, principal, ctx.body as MaterialCreate);
    return { status: 201, body: materialOut(row, upload && uploadTargetOf(deps.publicUrl(), row.id, upload)) };
  };
}

function uploadContent(deps: MaterialDeps): Handler {
  return async (ctx) => {
    const id = ctx.params.material_id!;
    ctx.audit.target_kind = 'material';
    ctx.audit.target_id = id;
    if (!ctx.bodyStream) throw new ServiceProblem('unsupported-media-type', 'The upload takes the bytes as the request body.');
    const { material, scope } = await receiveUpload(
      deps.db,
      id,
      (ctx.query as { token: string }).token,
      ctx.bodyStream,
      deps.now ?? (() => new Date()),
      undefined,
      deps.uploadStagingDir,
    );
    // Audited as the tenant only once the URL proved to be theirs; refusals stay anonymous.
    ctx.principal = { ...scope, keyId: id, scopes: new Set(['material']), label: `upload:${id}` };
    await deps.enqueueExtraction({ materialId: id, ...scope });
    return { status: 200, body: materialOut(material) };
  };
}

function getMaterial(deps: MaterialDeps): Handler {
  return async (ctx) => {
    const { principal, id } = targetOf(ctx, 'material', 'material_id');
    return { status: 200, body: await viewMaterial(deps, principal, id) };
  };
}

function getExtraction(deps: MaterialDeps): Handler {
  return async (ctx) => {
    const { principal, id } = targetOf(ctx, 'material', 'material_id');
    return { status: 200, body: await viewExtraction(deps, principal, id) };
  };
}

export function materialHandlers(deps: MaterialDeps): [string, Handler][] {
  return [
    ['createMaterial', createMaterial(deps)],
    ['uploadMaterialContent', uploadContent(deps)],
    ['getMaterial', getMaterial(deps)],
    ['getMaterialExtraction', getExtraction(deps)],
  ];
}
