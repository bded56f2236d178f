/**
 * The direction of the code (docs/architecture.md), enforced on every test
 * run (`npm test` runs `npm run lint:deps` first):
 *
 *   root        src/root: the one composition root (builds everything, mounts
 *               every capability's routes.ts and jobs.ts), and src/cli
 *   edge        src/edge: the uWS app, the HTTP pipeline, the socket
 *               transport, the service's own pages
 *   contract    src/openapi and the operations table (src/schemas/operations*):
 *               every capability's schemas.ts gathered into one document
 *   capability  src/<capability>/: index.ts (its commands), routes.ts (HTTP),
 *               jobs.ts (BullMQ), store.ts (its queries), schemas.ts (its
 *               contract); src/assessment is the engine four of them call
 *   core        machines, actors, src/checks, src/scoring, the shared schemas
 *   platform    src/platform: db pool, migrations, Redis, queues, logger,
 *               config, the problem family
 *
 * Imports point down only; machines import xstate and their own folder.
 */
const CAPS =
  'inquiries|observations|entities|material|cases|monitors|sessions|webhooks|policies|registry|audit|auth|tenancy|reports|calibration|events|assessment';
const CAPABILITY = `^src/(${CAPS})/`;
const ROUTES_OR_JOBS = `^src/(${CAPS})/[A-Za-z/]*(routes|jobs|Routes)\\.ts$`;
const CONTRACT = '^(src/openapi/|src/schemas/operations[A-Za-z]*\\.ts$)';
const CORE = '^(machines/|actors/|src/checks/|src/scoring/|src/schemas/(?!operations))';

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'A file cycle makes the order of start-up and of reading undefined.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'machines-are-pure',
      severity: 'error',
      comment: 'Machines import only xstate and their own folder (DESIGN.md: persist first, then act).',
      from: { path: '^machines/' },
      to: { pathNot: ['^machines/', '^node_modules/xstate/'] },
    },
    {
      name: 'capabilities-meet-through-index',
      severity: 'error',
      comment:
        "A capability imports another only through its index.ts (its commands) or schemas.ts (its contract): never another's store, engine or view.",
      from: { path: `^src/(${CAPS})/` },
      to: { path: `^src/(${CAPS})/`, pathNot: [`^src/$1/`, `^src/(${CAPS})/(index|schemas)\\.ts$`] },
    },
    {
      name: 'the-edge-is-transport',
      severity: 'error',
      comment:
        "The edge imports no capability but the auth and audit doors (their index.ts: every call is authenticated and audited), and of the core only the shared schemas (the operation type, the scalars); the rest it receives from the root (a policy's allowed origins, the registry's hint) or reads from the operation's spec (a PUT's byte limit). The contract and the platform are its infrastructure (docs/architecture.md).",
      from: { path: '^src/edge/' },
      to: { path: [CAPABILITY, CORE], pathNot: ['^src/(auth|audit)/index\\.ts$', '^src/schemas/'] },
    },
    {
      name: 'only-the-root-mounts-routes-and-jobs',
      severity: 'error',
      comment: "A capability's routes.ts and jobs.ts are mounted by src/root alone: nothing else may call HTTP or queue glue.",
      from: { pathNot: '^src/root/' },
      to: { path: ROUTES_OR_JOBS },
    },
    {
      name: 'only-the-edge-speaks-http-and-queues',
      severity: 'error',
      comment:
        'uWebSockets.js, bullmq and src/edge belong to routes.ts, jobs.ts, src/edge, src/root, the Redis plumbing and the outbox relay with its queue catalogue (actors/queues.ts, actors/relay.ts); commands know no transport. A type-only import (a Queue handed in) brings none.',
      from: { pathNot: [ROUTES_OR_JOBS, '^src/(edge|root|cli)/', '^src/platform/redis/', '^actors/(queues|relay)\\.ts$'] },
      to: { path: ['^node_modules/(uWebSockets\\.js|bullmq)/', '^src/edge/'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'nothing-reaches-the-root',
      severity: 'error',
      comment: 'Only the CLI starts the root; everything else is handed what it needs.',
      from: { pathNot: '^src/(root|cli)/' },
      to: { path: '^src/(root|cli)/' },
    },
    {
      name: 'platform-knows-nothing-above',
      severity: 'error',
      comment: 'The platform (pools, Redis, queues, logger, config, problems) serves every layer and imports none above it.',
      from: { path: '^src/platform/' },
      to: { path: [CAPABILITY, CORE, CONTRACT, '^src/(edge|root|cli)/'] },
    },
    {
      name: 'core-knows-no-capability',
      severity: 'error',
      comment: 'Machines, the actor runtime, checks, scoring and the shared schemas are used by capabilities, never the other way round.',
      from: { path: CORE },
      to: { path: [CAPABILITY, CONTRACT, '^src/(edge|root|cli)/'] },
    },
    {
      name: 'capabilities-know-no-contract-table',
      severity: 'error',
      comment: 'The operations table and the OpenAPI document gather every capability; a capability reads only its own schemas.',
      from: { path: CAPABILITY },
      to: { path: CONTRACT },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(test|bench|scripts)/' },
  },
};
