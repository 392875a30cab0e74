import { defineConfig } from 'vitest/config';

// One fast-check seed per run, chosen here (in the main process) so every worker shares it and
// CI prints it once; rerun a failure with FC_SEED=<seed>.
const seed = Number(process.env.FC_SEED ?? Math.floor(Math.random() * 2 ** 31));
process.env.FC_SEED = String(seed);
if (!process.env.VITEST_WORKER_ID) console.log(`fast-check seed: ${seed} (rerun with FC_SEED=${seed})`);

// `tollgate` and its subpaths, as the examples import them, are the sources (as in tsconfig.json's
// `paths`): the examples run under test without a build. The package tests use the built tarball.
const entries: Record<string, string> = {
  policy: 'src/policy/index.ts',
  routes: 'src/routes/index.ts',
  limits: 'src/limits/index.ts',
  tables: 'src/tables/index.ts',
  fetch: 'src/adapters/fetch.ts',
  node: 'src/adapters/node.ts',
  fastify: 'src/adapters/fastify.ts',
  check: 'src/check/index.ts',
  redis: 'src/stores/redis-store.ts',
  sim: 'src/sim/index.ts',
};
const root = import.meta.dirname;

export default defineConfig({
  resolve: {
    alias: [
      ...Object.entries(entries).map(([name, file]) => ({
        find: `tollgate/${name}`,
        replacement: `${root}/${file}`,
      })),
      { find: /^tollgate$/, replacement: `${root}/src/index.ts` },
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
