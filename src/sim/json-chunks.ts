/** JSON written piece by piece: a report of any size never becomes one giant string. */

/** Depth to which objects and arrays are walked piece by piece; deeper values are one piece each. */
const WALKED_DEPTH = 3;

/**
 * The text `JSON.stringify(value, null, 2)` would give, as a sequence of pieces: objects and
 * arrays near the top are written member by member, so the largest piece is one member (a
 * caller's series, bounded in size), not the whole report.
 * @example
 * import { jsonChunks } from './json-chunks.js';
 * [...jsonChunks({ a: [1, 2] })].join('') === JSON.stringify({ a: [1, 2] }, null, 2); // true
 */
export function* jsonChunks(value: unknown, indent = '', depth = 0): Generator<string> {
  if (value !== null && typeof value === 'object' && depth < WALKED_DEPTH && !('toJSON' in value)) {
    const inner = `${indent}  `;
    if (Array.isArray(value)) {
      if (value.length === 0) {
        yield '[]';
        return;
      }
      yield '[';
      for (let i = 0; i < value.length; i++) {
        yield `${i === 0 ? '' : ','}\n${inner}`;
        // As JSON.stringify: undefined, functions and symbols in an array are written as null.
        const item = value[i];
        if (item === undefined || typeof item === 'function' || typeof item === 'symbol') yield 'null';
        else yield* jsonChunks(item, inner, depth + 1);
      }
      yield `\n${indent}]`;
      return;
    }
    const entries = Object.entries(value).filter(
      ([, member]) => member !== undefined && typeof member !== 'function' && typeof member !== 'symbol',
    );
    if (entries.length === 0) {
      yield '{}';
      return;
    }
    yield '{';
    for (let i = 0; i < entries.length; i++) {
      const [key, member] = entries[i]!;
      yield `${i === 0 ? '' : ','}\n${inner}${JSON.stringify(key)}: `;
      yield* jsonChunks(member, inner, depth + 1);
    }
    yield `\n${indent}}`;
    return;
  }
  const text = JSON.stringify(value, null, 2);
  yield text === undefined ? 'null' : text.replaceAll('\n', `\n${indent}`);
}
