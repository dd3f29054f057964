import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Files run in parallel; each builds its own organizations, so nothing is shared.
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
