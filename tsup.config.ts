import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

export default defineConfig({
  // One entry per subpath of package.json `exports`, and the CLI.
  entry: {
    index: 'src/index.ts',
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
    'cli/bin': 'src/cli/bin.ts',
  },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  dts: {
    entry: {
      index: 'src/index.ts',
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
    },
  },
  define: { __TOLLGATE_VERSION__: JSON.stringify(version) },
  clean: true,
  sourcemap: false,
  splitting: true,
  treeshake: true,
});
