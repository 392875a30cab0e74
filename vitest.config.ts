import { defineConfig } from 'vitest/config';
import { ENTRY_POINTS } from './entry-points.js';

// One fast-check seed per run, chosen here (in the main process) so every worker shares it and
// CI prints it once; rerun a failure with FC_SEED=<seed>.
const seed = Number(process.env.FC_SEED ?? Math.floor(Math.random() * 2 ** 31));
process.env.FC_SEED = String(seed);
if (!process.env.VITEST_WORKER_ID) console.log(`fast-check seed: ${seed} (rerun with FC_SEED=${seed})`);

// `tollgate` and its subpaths, as the examples import them, are the sources (see entry-points.ts):
// the examples run under test without a build. The package tests use the built tarball.
const root = import.meta.dirname;

export default defineConfig({
  resolve: {
    alias: [
      ...Object.entries(ENTRY_POINTS)
        .filter(([name]) => name !== 'index')
        .map(([name, file]) => ({
          find: `tollgate/${name}`,
          replacement: `${root}/${file}`,
        })),
      { find: /^tollgate$/, replacement: `${root}/${ENTRY_POINTS.index}` },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
