// The boundaries of DESIGN.md section 7, checked on the source: no import circle between files or
// between folders, the pure folders free of Node, ajv, yaml and the clock; the published entries
// are small files at the top of src/ that pick names from the files defining them; folders import
// each other's files, never an entry; the CLI and the adapters use the entries only.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENTRY_POINTS } from '../../entry-points.js';

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

/** The published entries (entry-points.ts): the small files at the top of src/ that pick names. */
const entries = Object.values(ENTRY_POINTS).map((path) => join(src, '..', path));
const isFolderIndex = (file: string) => /^[a-z-]+\/index\.ts$/.test(name(file));

/** The names a file exports with `export { a, type B as C } from '...'` (entries are only that). */
function exportedNames(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)].flatMap((m) =>
    m[1]!
      .split(',')
      .map((part) => part.trim().replace(/^type\s+/, ''))
      .filter(Boolean)
      .map((part) => part.split(/\s+as\s+/).pop()!),
  );
}

/** Each relative import of a file with the names it takes: `import { a, type B } from './x.js'`. */
function importsByTarget(file: string): { target: string; names: string[] }[] {
  const text = readFileSync(file, 'utf8');
  return [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s+'(\.[^']+)'/g),
  ].map((m) => ({
    target: resolve(dirname(file), m[2]!).replace(/\.js$/, '.ts'),
    names: m[1]!
      .split(',')
      .map(
        (part) =>
          part
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0]!,
      )
      .filter(Boolean),
  }));
}

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

  it('names as entries exactly the files at the top of src/: one per published subpath', () => {
    const topLevel = files.filter((file) => !name(file).includes('/')).map(name);
    expect(topLevel.sort()).toEqual(entries.map(name).sort());
  });

  it('makes each entry a small file that picks its names from the files that define them', () => {
    // Nothing but `export { a, type B } from './folder/file.js'`: no code, no `export *` (every
    // public name is chosen here), no import of another entry or of a folder index.
    const offences = entries.flatMap((entry) => {
      const code = readFileSync(entry, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      const statements = code
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = statements.filter(
        (s) => !/^export (type )?\{[^}]*\} from '\.\/[a-z-]+\/[a-z-]+\.js'$/.test(s),
      );
      const targets = graph
        .get(entry)!
        .local.filter((target) => entries.includes(target) || isFolderIndex(target));
      return [...bad, ...targets.map(name)].map((what) => `${name(entry)}: ${what.replace(/\s+/g, ' ')}`);
    });
    expect(offences).toEqual([]);
  });

  it('keeps no folder index: folders import each other from the files that define the names', () => {
    expect(files.filter(isFolderIndex).map(name)).toEqual([]);
  });

  it('never imports an entry from inside a folder, except in the CLI and the adapters', () => {
    const offences = [...graph]
      .filter(([file]) => name(file).includes('/') && !['cli', 'adapters'].includes(folderOf(file)))
      .flatMap(([file, { local }]) =>
        local
          .filter((target) => entries.includes(target))
          .map((target) => `${name(file)} -> ${name(target)}`),
      );
    expect(offences).toEqual([]);
  });

  it('lets the CLI and the adapters use the entries only (and core for what no entry publishes)', () => {
    // The CLI and the adapters are the package's own users: what they need from another folder
    // comes through a published entry. src/core (errors, issues, suggestions, escapes) is the
    // vocabulary every folder shares; they may take from it only names no entry publishes.
    const published = new Set(entries.flatMap(exportedNames));
    const offences = [...graph]
      .filter(([file]) => ['cli', 'adapters'].includes(folderOf(file)))
      .flatMap(([file]) =>
        importsByTarget(file).flatMap(({ target, names }) => {
          const to = folderOf(target);
          if (to === folderOf(file) || entries.includes(target) || target.endsWith('.json')) return [];
          const fromCore = to === 'core' ? names.filter((n) => published.has(n)) : [];
          if (to === 'core' && fromCore.length === 0) return [];
          return [
            `${name(file)} -> ${name(target)}${fromCore.length > 0 ? ` (${fromCore.join(', ')}: take them from an entry)` : ''}`,
          ];
        }),
      );
    expect(offences).toEqual([]);
  });
});
