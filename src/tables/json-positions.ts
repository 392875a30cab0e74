/** Where each value and key of a JSON text starts: one pass over the text, linear in its length. */

/**
 * The most values and members indexed: past it, a path is placed at its nearest indexed ancestor.
 * It bounds the index's memory (a 64 MiB `[0,0,...]` holds 32 million values) far above any table,
 * token, scenario or calls file.
 */
export const MAX_INDEXED = 4_000_000;

/** The index of one JSON text. */
export interface JsonPositions {
  /** Offset of the value at `path` (or, with `key`, of its key), or of its nearest ancestor indexed. */
  readonly offsetOf: (path: readonly (string | number)[], key: boolean) => number;
  /** The keys that repeat an earlier key of the same object, in text order (with `repeatedKeys`). */
  readonly repeatedKeys: readonly { readonly name: string; readonly offset: number }[];
}

/** An open container on the scan: the offset of its `{` or `[` names it. */
interface Open {
  readonly at: number;
  readonly array: boolean;
  /** After a key, before its value: the next string is a value. */
  valueNext: boolean;
  /** The member whose value comes next (`<container offset>\0<key>`), null when not indexed. */
  member: string | null;
  /** The keys seen so far, when repeated keys are looked for. */
  readonly seen: Set<string> | null;
}

/**
 * Indexes `text` (valid JSON; anything else gives a partial index, never an error) down to
 * `maxDepth` containers. A container is named by its offset, so each entry holds one key, not its
 * path: a long key above many values is stored once, and the index stays linear in the text.
 * For `{"a": [7, {"b": 1}]}`: the member `0\0a` has its key at 1 and its value at 6; the items
 * of the array at 6 start at 7 and 10; the member `10\0b` has its key at 11 and its value at 16.
 * @example
 * import { indexJsonPositions } from './json-positions.js';
 * indexJsonPositions('{"a": [7, {"b": 1}]}', { maxDepth: Infinity }).offsetOf(['a', 1, 'b'], false); // 16
 */
export function indexJsonPositions(
  text: string,
  options: { maxDepth: number; repeatedKeys?: boolean },
): JsonPositions {
  const keys = new Map<string, number>();
  const values = new Map<string, number>();
  const items = new Map<number, number[]>();
  const repeatedKeys: { name: string; offset: number }[] = [];
  let indexed = 0;
  // The open containers the index keeps (down to maxDepth); `depth` counts every open one.
  const stack: Open[] = [];
  let depth = 0;
  const valueStart = (offset: number): void => {
    const top = stack[stack.length - 1];
    if (top === undefined || depth !== stack.length) return;
    if (top.array) {
      if (indexed >= MAX_INDEXED) return;
      indexed++;
      const list = items.get(top.at);
      if (list === undefined) items.set(top.at, [offset]);
      else list.push(offset);
    } else if (top.valueNext) {
      if (top.member !== null) values.set(top.member, offset);
      top.valueNext = false;
      top.member = null;
    }
  };
  const keyStart = (top: Open, offset: number, end: number): void => {
    let name = text.slice(offset + 1, end);
    if (name.includes('\\'))
      try {
        name = JSON.parse(text.slice(offset, end + 1)) as string;
      } catch {
        // Not JSON after all: the raw text names it.
      }
    if (top.seen !== null) {
      if (top.seen.has(name)) repeatedKeys.push({ name, offset });
      else top.seen.add(name);
    }
    top.valueNext = true;
    top.member = `${top.at}\0${name}`;
    // A repeated key is placed at its last occurrence, whose value JSON.parse keeps.
    if (indexed < MAX_INDEXED || keys.has(top.member)) {
      if (!keys.has(top.member)) indexed++;
      keys.set(top.member, offset);
    } else top.member = null;
  };
  const endOfString = (from: number): number => {
    let end = text.indexOf('"', from + 1);
    while (end !== -1) {
      let slashes = 0;
      while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
      if (slashes % 2 === 0) return end;
      end = text.indexOf('"', end + 1);
    }
    return text.length;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20 || c === 0x3a || c === 0x2c) continue; // whitespace, `:` and `,`
    if (c === 0x22) {
      const end = endOfString(i);
      const top = stack[stack.length - 1];
      if (top !== undefined && depth === stack.length && !top.array && !top.valueNext) keyStart(top, i, end);
      else valueStart(i);
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      valueStart(i);
      depth++;
      if (depth === stack.length + 1 && depth <= options.maxDepth)
        stack.push({
          at: i,
          array: c === 0x5b,
          valueNext: false,
          member: null,
          seen: c === 0x7b && options.repeatedKeys ? new Set() : null,
        });
    } else if (c === 0x7d || c === 0x5d) {
      if (stack.length === depth) stack.pop();
      depth = Math.max(0, depth - 1);
    } else {
      // A number, true, false or null: its first character, then past its end.
      valueStart(i);
      while (i + 1 < text.length) {
        const d = text.charCodeAt(i + 1);
        if (d <= 0x20 || d === 0x2c || d === 0x5d || d === 0x7d) break;
        i++;
      }
    }
  }
  const root = Math.max(0, text.search(/\S/));
  const offsetOf = (path: readonly (string | number)[], key: boolean): number => {
    let offset = root;
    for (let step = 0; step < path.length; step++) {
      const name = path[step]!;
      if (text.charCodeAt(offset) === 0x5b) {
        const index = typeof name === 'number' ? name : /^\d+$/.test(name) ? Number(name) : -1;
        const next = items.get(offset)?.[index];
        if (next === undefined) return offset;
        offset = next;
        continue;
      }
      const member = `${offset}\0${name}`;
      const keyAt = keys.get(member);
      if (keyAt === undefined) return offset;
      if (key && step === path.length - 1) return keyAt;
      offset = values.get(member) ?? keyAt;
    }
    return offset;
  };
  return { offsetOf, repeatedKeys };
}
