// Every value the reviewed entries publish is documented twice: a JSDoc with an `@example` where it
// is defined (jsdoc-examples.test.ts compiles those), and its name in README.md or docs/limits.md,
// so nothing is public only because another folder once needed it.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ENTRY_POINTS } from '../../entry-points.js';
import { entryProgram } from '../support/entry-program.js';

const root = join(import.meta.dirname, '..', '..');
const REVIEWED = [
  'index',
  'policy',
  'routes',
  'limits',
  'tables',
  'fetch',
  'node',
  'fastify',
  'redis',
  'check',
  'sim',
] as const;
const prose = ['README.md', 'docs/limits.md']
  .map((file) => readFileSync(join(root, file), 'utf8'))
  .join('\n');

const { program, checker } = entryProgram(REVIEWED.map((entry) => ENTRY_POINTS[entry]));

/** Each value an entry publishes, with the declaration that defines it. */
function publishedValues(entry: (typeof REVIEWED)[number]): { name: string; node: ts.Node }[] {
  const file = program.getSourceFile(join(root, ENTRY_POINTS[entry]))!;
  return checker.getExportsOfModule(checker.getSymbolAtLocation(file)!).flatMap((exported) => {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declaration = symbol.declarations?.[0];
    if (declaration === undefined || (symbol.flags & ts.SymbolFlags.Value) === 0) return [];
    // A `const` carries its JSDoc on the statement, not on the declarator.
    const node = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
    return [{ name: exported.name, node }];
  });
}

const where = (node: ts.Node) => relative(root, node.getSourceFile().fileName);

describe('the values the entries publish', () => {
  it('finds the values of every reviewed entry (self-check)', () => {
    expect(publishedValues('limits').map((v) => v.name)).toContain('step');
    expect(REVIEWED.flatMap(publishedValues).length).toBeGreaterThan(50);
  });

  it.each(REVIEWED)('each carry a JSDoc @example where they are defined (%s)', (entry) => {
    const missing = publishedValues(entry)
      .filter(({ node }) => !ts.getJSDocTags(node).some((tag) => tag.tagName.text === 'example'))
      .map(({ name, node }) => `${name} (${where(node)})`);
    expect(missing).toEqual([]);
  });

  it.each(REVIEWED)('each appear by name in README.md or docs/limits.md (%s)', (entry) => {
    const missing = publishedValues(entry)
      .map(({ name }) => name)
      .filter((name) => !new RegExp(`\\b${name}\\b`).test(prose));
    expect(missing).toEqual([]);
  });
});
