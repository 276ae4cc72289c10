import { defineConfig } from 'vitest/config';

// Browser tests against a running server (started by run.mjs); not part of `npm test`.
export default defineConfig({
  test: {
    root: 'e2e',
    include: ['*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
