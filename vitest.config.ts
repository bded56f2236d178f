import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/globalSetup.ts'],
    // Each file gets its own database and Redis prefix, so files run in parallel safely.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
