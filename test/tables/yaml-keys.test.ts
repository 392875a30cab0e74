// The linear key work that replaced yaml's quadratic `uniqueKeys` check and `getIn` scans: the same
// answers as yaml's own, on real YAML others wrote (the workflows and app files in
// test/fixtures/real) and on the shipped tables.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Document, isMap, isSeq, type Node, parseDocument } from 'yaml';
import { readWorkflow } from '../../src/check/workflow.js';
import { shippedTables } from '../../src/policy/shipped-tables.js';
import { MAX_YAML_TOKENS } from '../../src/tables/yaml-bounds.js';
import { parseSourceDocument } from '../../src/tables/yaml-document.js';
import { nodeFinder, repeatedKeyOffsets } from '../../src/tables/yaml-keys.js';

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

const files = [
  ...yamlFiles('test/fixtures/real'),
  ...yamlFiles('data').filter((file) => !file.includes('schema')),
];

/** Every path of a document, down to its scalars. */
function paths(node: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const here = [prefix];
  if (isMap(node))
    return here.concat(
      node.items.flatMap((pair) => {
        const key = (pair.key as { value?: unknown } | null)?.value;
        return typeof key === 'string' || typeof key === 'number' ? paths(pair.value, [...prefix, key]) : [];
      }),
    );
  if (isSeq(node)) return here.concat(node.items.flatMap((item, index) => paths(item, [...prefix, index])));
  return here;
}

const rangeOf = (node: unknown) => (node as Node | undefined)?.range?.[0];

describe('YAML key work in linear time', () => {
  it('finds every node of real YAML files where yaml getIn finds it', () => {
    expect(files.length).toBeGreaterThan(20);
    let compared = 0;
    for (const file of files) {
      const document: Document = parseDocument(readFileSync(file, 'utf8'));
      const find = nodeFinder(document);
      for (const path of paths(document.contents)) {
        expect([file, path, rangeOf(find.node(path))]).toEqual([
          file,
          path,
          rangeOf(document.getIn(path, true)),
        ]);
        // getIn as the workflow reader uses it: a scalar's value, or the very node.
        expect(find.getIn(path)).toBe(document.getIn(path));
        expect(find.getIn(path, true)).toBe(document.getIn(path, true));
        compared++;
      }
    }
    // permissions.yaml alone has thousands of paths: the comparison is not vacuous.
    expect(compared).toBeGreaterThan(5_000);
  });

  it('reports a repeated key where yaml reports it, in block and flow maps, at any depth', () => {
    const texts = [
      'a: 1\nb: 2\na: 3\n',
      'outer:\n  inner: {x: 1, y: 2, x: 3}\n  other: 4\n',
      'list:\n  - {k: 1}\n  - k: 1\n    j: 2\n    k: 3\n',
      '1: one\n"1": quoted one is another key\n1: repeated\n',
    ];
    for (const text of texts) {
      const ours = repeatedKeyOffsets(parseDocument(text, { uniqueKeys: false }));
      const yamls = parseDocument(text, { uniqueKeys: true })
        .errors.filter((error) => error.code === 'DUPLICATE_KEY')
        .map((error) => error.pos[0]);
      expect(ours).toHaveLength(1);
      expect(ours).toEqual(yamls);
    }
  });

  it('takes two NaN keys for two keys, as yaml does', () => {
    const text = '.nan: 1\n.NaN: 2\n';
    expect(repeatedKeyOffsets(parseDocument(text, { uniqueKeys: false }))).toEqual([]);
    expect(parseDocument(text, { uniqueKeys: true }).errors).toEqual([]);
  });

  it('locates a repeated key at its line, and the first of two keys when asked for the key', () => {
    const text = 'version: 1\nendpoints:\n  GET /x: {}\n  GET /y: {}\n  GET /x: {}\n';
    expect(parseSourceDocument(text, 'dup.yaml').issues).toEqual([
      expect.objectContaining({
        code: 'yaml_syntax',
        message: 'invalid YAML: Map keys must be unique',
        source: { file: 'dup.yaml', line: 5, column: 3 },
      }),
    ]);
    const fine = parseSourceDocument(
      'version: 1\nendpoints:\n  GET /x: {}\n  GET /y:\n    public: true\n',
      'ok.yaml',
    );
    expect(fine.locate(['endpoints', 'GET /y'], { key: true })).toEqual({
      file: 'ok.yaml',
      line: 4,
      column: 3,
    });
    expect(fine.locate(['endpoints', 'GET /y', 'public'])).toEqual({ file: 'ok.yaml', line: 5, column: 13 });
    expect(fine.locate(['endpoints', 'GET /y', 'missing', 3])).toEqual({
      file: 'ok.yaml',
      line: 5,
      column: 5,
    });
  });

  it('refuses a document past the token bound with one issue, before parsing it, whatever its characters', () => {
    const tooLarge = {
      code: 'too_large',
      message: expect.stringContaining('too large to read as YAML: more than 2,000,000 tokens'),
      source: { file: 'big.yaml', line: 1, column: 1 },
    };
    // A flow list, and (the review of the first bound, which counted only line breaks, commas,
    // dashes and brackets) stray closing braces and `: ` pairs, each a node or an error to yaml.
    for (const body of [
      `scopes: [${'a,'.repeat(MAX_YAML_TOKENS / 2)}]`,
      '}'.repeat(MAX_YAML_TOKENS + 1),
      `x: ${': '.repeat(MAX_YAML_TOKENS / 2 + 1)}`,
    ]) {
      const parsed = parseSourceDocument(`kind: classic\n${body}\n`, 'big.yaml');
      expect(parsed.value).toBeUndefined();
      expect(parsed.issues).toEqual([expect.objectContaining(tooLarge)]);
    }
    const items = 'a,'.repeat(MAX_YAML_TOKENS / 2);
    expect(() => readWorkflow(`on: push\njobs: [${items}]\n`, 'big.yml', shippedTables(), new Map())).toThrow(
      /big\.yml:1:1: too large to read as YAML/,
    );
  });

  it('reports the first 100 syntax errors and how many more, not a million issues', () => {
    const parsed = parseSourceDocument(`kind: classic\n${'""\n'.repeat(150)}`, 'errors.yaml');
    expect(parsed.issues).toHaveLength(101);
    expect(parsed.issues[100]?.message).toMatch(/^invalid YAML: \d+ more errors from here on$/);
    expect(parsed.issues[99]?.source.line).toBeLessThanOrEqual(parsed.issues[100]!.source.line);
  });

  it('reports a nesting too deep for the parser as invalid YAML, not an internal error', () => {
    // 12 KB: implicit keys nested in a flow sequence overflow yaml's recursion (the review's case).
    const parsed = parseSourceDocument(`[${'a: b: '.repeat(2000)}]\n`, 'deep.yaml');
    expect(parsed.issues).toEqual([
      expect.objectContaining({
        code: 'yaml_syntax',
        message: expect.stringContaining('invalid YAML: nested too deeply'),
      }),
    ]);
  });

  it('refuses a repeated key in a workflow at its position', () => {
    const text = 'on: push\njobs:\n  a:\n    runs-on: x\n    steps: []\n  a:\n    runs-on: y\n';
    expect(() => readWorkflow(text, 'dup.yml', shippedTables(), new Map())).toThrow(
      /dup\.yml:6:3: invalid YAML: Map keys must be unique/,
    );
  });
});
