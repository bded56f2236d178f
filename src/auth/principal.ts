import type { Principal } from './authenticate.js';

/** Keyed operations always have a principal by the time a handler runs; this makes that explicit. */
export function requirePrincipal(ctx: { principal: Principal | null }): Principal {
  if (!ctx.principal) throw new Error('handler of a keyed operation ran without a principal');
  return ctx.principal;
}
