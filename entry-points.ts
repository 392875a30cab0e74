// The package's code entries: each subpath of package.json `exports` and the source it is built
// from. Each entry is a small file at the top of src/ that picks its public names from the files
// that define them (test/architecture/import-graph.test.ts holds the rules). tsup builds one file
// per entry; vitest resolves `tollgate/<name>` to the source (so the examples run under test
// without a build); tsconfig.json's `paths` say the same for tsc.
export const ENTRY_POINTS = {
  index: 'src/index.ts',
  policy: 'src/policy.ts',
  routes: 'src/routes.ts',
  limits: 'src/limits.ts',
  tables: 'src/tables.ts',
  fetch: 'src/fetch.ts',
  node: 'src/node.ts',
  fastify: 'src/fastify.ts',
  check: 'src/check.ts',
  redis: 'src/redis.ts',
  sim: 'src/sim.ts',
} as const;
