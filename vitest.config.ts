import { defineConfig } from 'vitest/config';

// One fast-check seed per run, chosen here (in the main process) so every worker shares it and
// CI prints it once; rerun a failure with FC_SEED=<seed>.
const seed = Number(process.env.FC_SEED ?? Math.floor(Math.random() * 2 ** 31));
process.env.FC_SEED = String(seed);
if (!process.env.VITEST_WORKER_ID) console.log(`fast-check seed: ${seed} (rerun with FC_SEED=${seed})`);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
