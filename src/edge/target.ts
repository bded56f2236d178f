import { requirePrincipal } from '../auth/index.js';
import type { Principal } from '../auth/index.js';
import type { HandlerContext } from './handler.js';

/**
 * The caller and the resource a route acts on (its id from the path
 * parameter `param`), with the resource named in the call's audit row before
 * anything can fail, so a refusal is audited against it too.
 */
export function targetOf(ctx: HandlerContext, kind: string, param: string): { principal: Principal; id: string } {
  const principal = requirePrincipal(ctx);
  const id = ctx.params[param]!;
  ctx.audit.target_kind = kind;
  ctx.audit.target_id = id;
  return { principal, id };
}
