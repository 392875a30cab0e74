/** Constants another module of the project exports: `import { QUERY } from './data.js'` read from that file. */
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readTextFile } from '../tables/load-tables.js';
import type { AstNode, ModuleFacts } from './scan-walk.js';

// How a relative import names a file: as written, TypeScript's `.js` for `.ts`, an extension left out, a folder's index.
const EXTENSIONS = [
  '',
  '.ts',
  '.tsx',
  '.mts',
  '.cts',
  '.js',
  '.mjs',
  '.cjs',
  '.jsx',
  '/index.ts',
  '/index.js',
];

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The file a relative import names, if there is one. */
function resolveImport(importer: string, from: string): string | undefined {
  const base = join(dirname(importer), from);
  const stems = [base, base.replace(/\.[mc]?js$/, '')];
  for (const stem of stems)
    for (const extension of EXTENSIONS) if (isFile(stem + extension)) return stem + extension;
  return undefined;
}

/**
 * Lets `facts` (of the module in `file`) read constants its relative imports export: each imported
 * file is read and its names gathered once per scan (`cache`), through `factsOf` (null when it does
 * not parse). Package imports and a workflow's inline script are left alone.
 * @example
 * import { emptyFacts } from './scan-walk.js';
 * import { linkImports } from './scan-imports.js';
 * const facts = emptyFacts();
 * linkImports(facts, 'src/bot.ts', () => null, new Map());
 * facts.loadExport?.('./missing.js', 'QUERY'); // undefined
 */
export function linkImports(
  facts: ModuleFacts,
  file: string,
  factsOf: (code: string, file: string) => ModuleFacts | null,
  cache: Map<string, ModuleFacts | null>,
): void {
  facts.loadExport = (from, name) => {
    if (!from.startsWith('.')) return undefined;
    const path = resolveImport(file, from);
    if (path === undefined) return undefined;
    if (!cache.has(path)) {
      // Marked before reading, so two modules that import each other are read once.
      cache.set(path, null);
      let code: string;
      try {
        // Bounded like every input: a regular file of at most 64 MiB, text.
        code = readTextFile(path);
      } catch {
        return undefined;
      }
      const loaded = factsOf(code, path);
      if (loaded !== null) linkImports(loaded, path, factsOf, cache);
      cache.set(path, loaded);
    }
    const loaded = cache.get(path);
    const node: AstNode | undefined = loaded?.bindings.get(name)?.[0];
    return loaded == null || node === undefined ? undefined : { node, facts: loaded };
  };
}
