// The boundaries of DESIGN.md section 7, checked on the source: no import circle between files or
// between folders, the pure folders free of Node, ajv, yaml and the clock, and the CLI on public
// entry points only.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = join(import.meta.dirname, '..', '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g;

/** Each file's imports: relative ones resolved to files under src/, others as written. */
function importsOf(file: string): { local: string[]; packages: string[] } {
  const text = readFileSync(file, 'utf8');
  const local: string[] = [];
  const packages: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2]!;
    if (spec.startsWith('.')) local.push(resolve(dirname(file), spec).replace(/\.js$/, '.ts'));
    else packages.push(spec);
  }
  return { local, packages };
}

const files = sourceFiles(src);
const graph = new Map(files.map((file) => [file, importsOf(file)]));
const name = (file: string) => relative(src, file);
const folderOf = (file: string) => name(file).split('/')[0]!;

/** Every cycle found by depth-first search, each as the list of nodes around it. */
function cycles(edges: Map<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of edges.keys()) if (!state.has(node)) visit(node);
  return found;
}

describe('the import graph of src/', () => {
  it('finds circles when there are some (self-check of the search)', () => {
    const edges = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(edges)).toEqual([['a', 'b', 'c', 'a']]);
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('resolves every relative import to a file', () => {
    const missing = [...graph].flatMap(([file, { local }]) =>
      local
        .filter((target) => !target.endsWith('.json') && !graph.has(target))
        .map((t) => `${name(file)} -> ${t}`),
    );
    expect(missing).toEqual([]);
  });

  it('has no import circle between files', () => {
    const edges = new Map([...graph].map(([file, { local }]) => [file, local.filter((t) => graph.has(t))]));
    expect(cycles(edges).map((cycle) => cycle.map(name).join(' -> '))).toEqual([]);
  });

  it('has no import circle between folders', () => {
    const edges = new Map<string, string[]>();
    for (const [file, { local }] of graph) {
      const from = folderOf(file);
      const targets = edges.get(from) ?? [];
      for (const target of local) {
        const to = folderOf(target);
        if (to !== from && !targets.includes(to) && graph.has(target)) targets.push(to);
      }
      edges.set(from, targets);
    }
    expect(cycles(edges).map((cycle) => cycle.join(' -> '))).toEqual([]);
  });

  it('keeps core, routes, policy and limits pure: no node:*, ajv, yaml, clock or randomness', () => {
    const pure = files.filter((file) => ['core', 'routes', 'policy', 'limits'].includes(folderOf(file)));
    const offences = pure.flatMap((file) => {
      const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      const bad = graph.get(file)!.packages.filter((spec) => /^(node:|ajv|yaml)/.test(spec));
      if (/\bDate\.now\(|\bnew Date\(\)|Math\.random\(|performance\.now\(/.test(text))
        bad.push('clock or randomness');
      return bad.map((what) => `${name(file)}: ${what}`);
    });
    expect(offences).toEqual([]);
  });

  it('crosses folders only through the target folder index (core and generated data aside)', () => {
    // The root entry (src/index.ts) picks its few names from inside the folders, by design.
    const offences = [...graph]
      .filter(([file]) => name(file).includes('/'))
      .flatMap(([file, { local }]) =>
        local
          .filter((target) => {
            if (!graph.has(target)) return false; // data files (schemas, generated tables)
            const to = folderOf(target);
            return (
              to !== folderOf(file) && !['core', 'generated'].includes(to) && !target.endsWith('/index.ts')
            );
          })
          .map((target) => `${name(file)} -> ${name(target)}`),
      );
    expect(offences).toEqual([]);
  });

  it('lets the CLI and the adapters use public entry points only: the root and the published subpaths', () => {
    const publicEntries = [
      'index.ts',
      'policy/index.ts',
      'routes/index.ts',
      'limits/index.ts',
      'tables/index.ts',
      'check/index.ts',
      'stores/redis-store.ts',
      'sim/index.ts',
    ];
    const offences = [...graph]
      .filter(([file]) => ['cli', 'adapters'].includes(folderOf(file)))
      .flatMap(([file, { local }]) =>
        local
          .filter((target) => folderOf(target) !== folderOf(file) && !publicEntries.includes(name(target)))
          .map((target) => `${name(file)} -> ${name(target)}`),
      );
    expect(offences).toEqual([]);
  });
});
