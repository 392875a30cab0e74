// The package's code entries: each subpath of package.json `exports` and the source it is built
// from. tsup builds one file per entry; vitest resolves `tollgate/<name>` to the source (so the
// examples run under test without a build); tsconfig.json's `paths` say the same for tsc.
export const ENTRY_POINTS = {
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
} as const;
