/**
 * The rule catalog: every refusal the service makes names one of these ids.
 * A rule id is stable once published; its meaning is one line, written for the
 * tenant's engineer who reads it in a 422 `type` or a problem document.
 * SPEC.md gives I13, I11 and D35; the rest are ours, in the same style.
 */
export const RULES = {
  I11: 'API keys are shown once and stored only as a per-key salted keyed hash; a key that does not verify is refused.',
  I13: 'Every inquiry declares a purpose registered to the tenant and allowed by its current policy; the X-Purpose header, when sent, must equal it.',
  I14: 'The intent must be registered to the tenant and allowed by its current policy.',
  I15: 'Presentation types must be artifact types registered to the tenant.',
  I16: 'Only sync mode is served; async and stream are refused rather than treated as sync.',
  I17: 'An idempotency key may be reused only with the identical request body.',
  I18: 'A subject must carry at least one presentation or an entity_id.',
  I19: 'tier_ceiling must name a known provider tier (t0, t1, t2).',
  D35: 'With retention_mode=transient, raw content is processed and never stored; only derived values and the content hash are kept.',
  D36: 'Audio and video material, and self-attested testimony, require a consent_ref.',
  D37: 'Analyst-asserted testimony requires a case_id.',
  C01: 'Cases require an investigative (KYB) tenant with an authorization record.',
  C02: 'Only a case signed off in review can be exported (signed off, or closed after its sign-off; a legal hold does not prevent it); a reviewer signs it off first.',
  C04: "Where the tenant's policy separates duties, the key that signs a case off is neither the one that opened it nor the one that last changed it.",
  C03: 'A case expansion may not spend more than what remains of the case budget, nor more than its own max_cost.',
  O01: "A browser page may call with a tenant's key only from an origin listed in the tenant's policy (allowed_origins).",
  K01: 'A key mints and revokes keys of its own mode only; scopes must be known, expiry in the future.',
  W01: 'Webhook targets must be https without credentials and resolve only to public addresses; test-mode keys may also use http and loopback for local receivers.',
  A01: 'An outcome must reference an assessment of the same tenant and mode.',
} as const;

export type RuleId = keyof typeof RULES;
