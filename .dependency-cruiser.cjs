/**
 * The direction of the code (DESIGN.md, "The map"), enforced on every test
 * run (`npm test` runs `npm run lint:deps` first):
 *
 *   edge        src/root (the one composition root), src/app.ts, src/http,
 *               src/http/routes, src/cli, workers
 *   capability  src/inquiries, src/observations, src/entities, src/material,
 *               src/cases, src/monitors, src/sessions, src/webhooks,
 *               src/policies, src/registry, src/audit, src/auth, src/tenancy,
 *               src/reports, src/calibration, src/events
 *   core        machines, actors, storage (src/db: one function per query),
 *               src/checks, src/scoring, src/schemas, src/openapi
 *   platform    src/platform (the problem family), src/redis, src/logger.ts,
 *               src/config.ts, src/rules.ts, src/preflight.ts
 *
 * Imports point down only; machines import xstate and their own folder.
 */
const EDGE = '^(src/root/|src/app\\.ts$|src/http/|src/cli/|workers/)';
const CAPABILITY = '^src/(inquiries|observations|entities|material|cases|monitors|sessions|webhooks|policies|registry|audit|auth|tenancy|reports|calibration|events)/';
const PLATFORM = '^(src/platform/|src/redis/|src/logger\\.ts$|src/config\\.ts$|src/rules\\.ts$|src/preflight\\.ts$)';

module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', comment: 'A file cycle makes the order of start-up and of reading undefined.', from: {}, to: { circular: true } },
    {
      name: 'machines-are-pure', severity: 'error',
      comment: 'Machines import only xstate and their own folder (DESIGN.md: persist first, then act).',
      from: { path: '^machines/' }, to: { pathNot: ['^machines/', '^node_modules/xstate/'] },
    },
    {
      name: 'only-the-edge-imports-the-edge', severity: 'error',
      comment: 'HTTP, routes, the CLI, workers and the composition root are the edge: nothing below may import them.',
      from: { pathNot: EDGE }, to: { path: EDGE },
    },
    {
      name: 'the-edge-reaches-no-further-than-the-root', severity: 'error',
      comment: 'Only the composition root builds things; the rest of the edge is handed what it needs.',
      from: { path: EDGE, pathNot: '^(src/root/|src/cli/)' }, to: { path: '^src/root/' },
    },
    {
      name: 'platform-knows-no-capability', severity: 'error',
      comment: 'The platform (pools, Redis, logger, config, the problem family) serves every layer and imports none above it.',
      from: { path: PLATFORM }, to: { path: [CAPABILITY, '^(machines|actors)/', '^src/(db|checks|scoring|schemas|openapi)/'] },
    },
    {
      name: 'core-knows-no-capability', severity: 'error',
      comment: 'Machines, the actor runtime, storage, checks, scoring and schemas are used by capabilities, never the other way round.',
      from: { path: '^(machines/|actors/|src/db/|src/checks/|src/scoring/|src/schemas/|src/openapi/)' }, to: { path: CAPABILITY },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(test|bench|scripts)/' },
  },
};
