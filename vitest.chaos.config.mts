import { defineConfig } from 'vitest/config';

// The long seeded runs (`npm run chaos`; CHAOS_RUNS and CHAOS_SEED set the size and the seed).
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.chaos.ts'],
    globalSetup: ['test/support/globalSetup.ts'],
    testTimeout: 3_600_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
