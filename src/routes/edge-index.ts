/** A state's static transitions, looked up by a segment's offsets inside the target: no slice, no hash. */
// Hot path: findEdge runs once per segment of every request; the bench guards it.

/**
 * Static segment texts sorted by length, with their first character and target; `byLength[n]` to
 * `byLength[n + 1]` is the range of texts of length `n`.
 */
export interface EdgeIndex<T> {
  readonly texts: readonly string[];
  readonly firsts: Int32Array;
  readonly targets: readonly T[];
  readonly byLength: Int32Array;
  /** The longest text; a longer segment has no edge. */
  readonly maxLength: number;
}

/**
 * Indexes the transitions of a state (static segment text to next state).
 * @example
 * import { buildEdgeIndex, findEdge } from './edge-index.js';
 * const index = buildEdgeIndex(new Map([['repos', 1], ['orgs', 2]]));
 * findEdge(index, '/orgs/x', 1, 5); // 2
 */
export function buildEdgeIndex<T>(edges: ReadonlyMap<string, T>): EdgeIndex<T> {
  const sorted = [...edges].sort(([a], [b]) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  const maxLength = sorted.length === 0 ? 0 : sorted[sorted.length - 1]![0].length;
  const byLength = new Int32Array(maxLength + 2);
  let k = 0;
  for (let n = 0; n <= maxLength + 1; n++) {
    while (k < sorted.length && sorted[k]![0].length < n) k++;
    byLength[n] = k;
  }
  return {
    texts: sorted.map(([text]) => text),
    firsts: Int32Array.from(sorted, ([text]) => text.charCodeAt(0)),
    targets: sorted.map(([, target]) => target),
    byLength,
    maxLength,
  };
}

/**
 * The target of the static text equal to `target.slice(from, to)` (compared raw, case-sensitively),
 * or undefined. Candidates are only the texts of that length; when there are several, their first
 * character is checked before the rest.
 * @example
 * import { buildEdgeIndex, findEdge } from './edge-index.js';
 * findEdge(buildEdgeIndex(new Map([['issues', 'I']])), '/repos/o/r/issues', 11, 17); // 'I'
 */
export function findEdge<T>(index: EdgeIndex<T>, target: string, from: number, to: number): T | undefined {
  const length = to - from;
  if (length > index.maxLength) return undefined;
  const start = index.byLength[length]!;
  const end = index.byLength[length + 1]!;
  if (start === end) return undefined;
  // One text of this length (the common case): compare it whole, one call on the target.
  if (end - start === 1)
    return target.startsWith(index.texts[start]!, from) ? index.targets[start] : undefined;
  const first = target.charCodeAt(from);
  for (let k = start; k < end; k++) {
    if (index.firsts[k] === first && target.startsWith(index.texts[k]!, from)) return index.targets[k];
  }
  return undefined;
}

// ASCII upper case to lower case by char code; every other code unchanged.
const lower = (code: number): number => (code >= 65 && code <= 90 ? code + 32 : code);

/**
 * The target of the static text equal to `target.slice(from, to)` when ASCII letter case is
 * ignored, or undefined. Called only after findEdge found nothing: a segment that names a static
 * segment in another letter case (`ACTIONS` for `actions`), which case-insensitive routers
 * (Express by default, Fastify with `caseSensitive: false`) route to that static segment. Cheap for
 * the usual parameter value: only texts of the segment's length are compared.
 * @example
 * import { buildEdgeIndex, findEdgeFolded } from './edge-index.js';
 * findEdgeFolded(buildEdgeIndex(new Map([['issues', 'I']])), '/repos/o/r/ISSUES', 11, 17); // 'I'
 */
export function findEdgeFolded<T>(
  index: EdgeIndex<T>,
  target: string,
  from: number,
  to: number,
): T | undefined {
  const length = to - from;
  if (length > index.maxLength) return undefined;
  const end = index.byLength[length + 1]!;
  for (let k = index.byLength[length]!; k < end; k++) {
    const text = index.texts[k]!;
    let i = 0;
    while (i < length && lower(text.charCodeAt(i)) === lower(target.charCodeAt(from + i))) i++;
    if (i === length) return index.targets[k];
  }
  return undefined;
}
