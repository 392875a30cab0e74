/** The segment offsets of a plain request target, found without making strings: the scan locateRoute does inline, in its one pass, as a function of its own. */
// locateRoute reads the path once, probing each segment as it ends, so it does not call scanPath:
// this is the same rule on its own (which targets are plain, where their segments are), for
// readParams and for the tests that pin the rule. A change here goes into locateRoute's loop too.

/**
 * Reused scratch of scanPath: after a scan that found `n` segments, segment `i` is
 * `target.slice(bounds[i], bounds[i + 1] - 1)` (each segment's start, then one past the path's end
 * plus one). Matching is synchronous, so one module-level buffer serves every call; read `bounds`
 * right after scanPath (a long path replaces the buffer with a bigger one).
 * @example
 * import { scanPath, scratch } from './scan-path.js';
 * scanPath('/repos/o/r'); // 3, and scratch.bounds starts [1, 7, 9, 11]
 */
export const scratch: { bounds: Int32Array } = { bounds: new Int32Array(64) };

/**
 * Doubles `scratch.bounds`, keeping what it holds, for a path with more segments than it has room for.
 * @example
 * import { growBounds, scratch } from './scan-path.js';
 * growBounds().length === scratch.bounds.length; // true
 */
export function growBounds(): Int32Array {
  const bigger = new Int32Array(scratch.bounds.length * 2);
  bigger.set(scratch.bounds);
  scratch.bounds = bigger;
  return bigger;
}

/**
 * True for a segment `.` or `..` between offsets `from` and `to` (exclusive): a dot segment, which
 * splitPath refuses.
 * @example
 * import { isDot } from './scan-path.js';
 * isDot('/a/../b', 3, 5); // true
 * isDot('/a/..b', 3, 6); // false
 */
export function isDot(target: string, from: number, to: number): boolean {
  const length = to - from;
  if (length > 2 || target.charCodeAt(from) !== 46) return false;
  return length === 1 || target.charCodeAt(from + 1) === 46;
}

/**
 * Finds the segments of `target`'s path (up to the first `?` or `#`) and records their offsets in
 * `scratch.bounds`; returns how many, or -1 when the path needs the careful reading of splitPath:
 * no leading `/`, an empty or dot segment, or any `%`, `\`, control character, DEL or non-ASCII
 * character. So a path this accepts reads the same raw and decoded: every bad_path rule and message
 * stays with splitPath, and a segment here is exactly what splitPath would give.
 * @example
 * import { scanPath } from './scan-path.js';
 * scanPath('/repos/o/r/issues?state=open'); // 4
 * scanPath('/'); // 0
 * scanPath('/users/a%20b'); // -1: splitPath decides
 */
export function scanPath(target: string): number {
  if (target.charCodeAt(0) !== 47 /* '/' */) return -1;
  // One pass, a charCodeAt per character: profiled on the bench's mix, the regex run and an
  // indexOf per segment that did this before cost 18% of a match (the calls, not the characters).
  const length = target.length;
  let bounds = scratch.bounds;
  let count = 0;
  let from = 1;
  let i = 1;
  for (; i < length; i++) {
    const c = target.charCodeAt(i);
    if (c === 47 /* '/' */) {
      if (i === from || isDot(target, from, i)) return -1;
      if (count + 2 >= bounds.length) bounds = growBounds();
      bounds[count++] = from;
      from = i + 1;
      continue;
    }
    if (c === 63 /* '?' */ || c === 35 /* '#' */) break;
    // `%` (splitPath decodes), a backslash, control characters, DEL, non-ASCII: splitPath checks.
    if (c === 37 || c === 92 || c < 32 || c >= 127) return -1;
  }
  if (i === 1) return 0;
  if (i === from || isDot(target, from, i)) return -1;
  if (count + 2 >= bounds.length) bounds = growBounds();
  bounds[count++] = from;
  bounds[count] = i + 1;
  return count;
}
