// The JSON positions index: every depth, linear in the text (a container is named by its offset,
// so no entry repeats its ancestors' keys), bounded (MAX_INDEXED), repeated keys found per object.
import { describe, expect, it } from 'vitest';
import { parseDataFile, parseJsonSource, parseSource } from '../../src/tables/json-document.js';
import { indexJsonPositions, MAX_INDEXED } from '../../src/tables/json-positions.js';

describe('JSON positions', () => {
  it('finds values and keys at every depth, step by step', () => {
    const text = '{"a": [7, {"b": 1}], "c": {"d": {"e": {"f": [0, "x"]}}}}';
    const index = indexJsonPositions(text, { maxDepth: Number.POSITIVE_INFINITY });
    expect(index.offsetOf(['a', 1, 'b'], false)).toBe(16);
    expect(index.offsetOf(['a', 1, 'b'], true)).toBe(11);
    expect(text.slice(index.offsetOf(['c', 'd', 'e', 'f', 1], false))).toMatch(/^"x"/);
    // A missing step: its nearest ancestor.
    expect(index.offsetOf(['a', 5], false)).toBe(6);
    expect(index.offsetOf(['c', 'nope', 'x'], true)).toBe(26);
  });

  it('stops at maxDepth, placing deeper paths at the deepest container indexed', () => {
    const text = '{"paths": {"/x": {"get": {"deep": 1}}}}';
    const index = indexJsonPositions(text, { maxDepth: 3 });
    expect(index.offsetOf(['paths', '/x', 'get'], true)).toBe(text.indexOf('"get"'));
    expect(index.offsetOf(['paths', '/x', 'get', 'deep'], false)).toBe(text.indexOf('{"deep"'));
  });

  it('places a scenario’s `callers.0.token.scopes.1` at its line and column', () => {
    const text =
      '{\n  "callers": [\n    {\n      "token": {\n        "scopes": ["repo", "usr"]\n      }\n    }\n  ]\n}\n';
    const doc = parseDataFile(text, 's.json');
    expect(doc.locate(['callers', 0, 'token', 'scopes', 1])).toEqual({ file: 's.json', line: 5, column: 28 });
    expect(doc.locate(['callers', 0, 'token', 'scopes'], { key: true })).toEqual({
      file: 's.json',
      line: 5,
      column: 9,
    });
  });

  it('keeps a long key above many values once, not once per value (linear)', () => {
    const key = 'k'.repeat(1_000_000);
    const text = `{"${key}": [${'0,'.repeat(200_000)}0]}`;
    const started = performance.now();
    const index = indexJsonPositions(text, { maxDepth: Number.POSITIVE_INFINITY });
    expect(index.offsetOf([key, 200_000], false)).toBe(text.length - 3);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it(`indexes at most ${MAX_INDEXED.toLocaleString('en-US')} values; past them a path is placed at its container`, () => {
    const text = `[${'0,'.repeat(MAX_INDEXED + 1)}0]`;
    const doc = parseJsonSource(text, 'big.json');
    expect(doc.locate([MAX_INDEXED - 1]).column).toBe(2 * MAX_INDEXED);
    expect(doc.locate([MAX_INDEXED + 1]).column).toBe(1);
  });

  it('reports a repeated key in any object of a data file, and keeps the last one elsewhere', () => {
    const text = '{"a": [{"x": 1, "y": 2, "x": 3}], "b": {"a": 1}}';
    expect(parseDataFile(text, 't.json').issues).toEqual([
      {
        code: 'json_syntax',
        message: 'invalid JSON: key `x` given twice in one object (give it once)',
        path: [],
        source: { file: 't.json', line: 1, column: 25 },
      },
    ]);
    // Check's calls files keep JSON.parse's reading: the last value, and its position.
    const calls = parseSource(text, 'calls.json', { maxDepth: 3 });
    expect(calls.issues).toEqual([]);
    expect(calls.locate(['a', 0, 'x'], { key: true }).column).toBe(25);
    expect(calls.locate(['a', 0, 'x']).column).toBe(30);
  });

  it('reads a leading byte order mark as a space', () => {
    const doc = parseDataFile('\uFEFF{"kind": "classic"}', 't.json');
    expect(doc.issues).toEqual([]);
    expect(doc.value).toEqual({ kind: 'classic' });
    expect(doc.locate(['kind'], { key: true }).column).toBe(3);
  });
});
