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
    // A real server with live demo liquidity and 3.3 s toasts: on a loaded machine a step can
    // miss its moment. A failed test runs once more, with the same assertions; two failures fail.
    retry: 1,
  },
});
