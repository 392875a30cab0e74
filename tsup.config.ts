import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { ENTRY_POINTS } from './entry-points.js';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

export default defineConfig({
  // One entry per subpath of package.json `exports`, and the CLI.
  entry: { ...ENTRY_POINTS, 'cli/bin': 'src/cli/bin.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  dts: { entry: ENTRY_POINTS },
  define: { __TOLLGATE_VERSION__: JSON.stringify(version) },
  clean: true,
  sourcemap: false,
  splitting: true,
  treeshake: true,
});
