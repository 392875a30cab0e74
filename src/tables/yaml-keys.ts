/**
 * Key work on a parsed YAML document in time linear in its size. yaml's own `uniqueKeys` check
 * compares each key with every earlier key of its map, and `getIn` scans a map's pairs for every
 * step: an overlay of 10,000 endpoints took 13 s to validate, most of it in those two scans.
 */
import {
  type Document,
  isMap,
  isPair,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  visit,
  type YAMLMap,
} from 'yaml';

/** The message yaml gives a repeated key, kept so that a file's problems read as before. */
export const REPEATED_KEY_MESSAGE = 'Map keys must be unique';

/**
 * Offsets of the keys that repeat an earlier key of the same map, in document order. Keys are
 * the same when their scalar values are (yaml's rule for `uniqueKeys: true`); a key that is a
 * collection is never the same as another.
 */
export function repeatedKeyOffsets(document: Document): number[] {
  const offsets: number[] = [];
  visit(document, {
    Map(_key, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        // NaN is no key's equal, itself included, as in yaml's check.
        if (!isScalar(pair.key) || Number.isNaN(pair.key.value)) continue;
        if (seen.has(pair.key.value)) offsets.push(pair.key.range?.[0] ?? 0);
        else seen.add(pair.key.value);
      }
    },
  });
  return offsets;
}

/** What reading a document by path needs: a yaml Document has it, and so has a NodeFinder. */
export interface PathReader {
  getIn(path: readonly (string | number)[], keepScalar?: boolean): unknown;
}

/** Finds nodes by path as `document.getIn(path, true)` does, each map indexed once. */
export interface NodeFinder extends PathReader {
  /** The node at `path`, or undefined when a step is missing or not a collection. */
  readonly node: (path: readonly (string | number)[]) => Node | undefined;
  /** The pair whose key is the last step of `path`, inside the map at the steps before it. */
  readonly pair: (path: readonly (string | number)[]) => Pair | undefined;
}

export function nodeFinder(document: Document): NodeFinder {
  const indexes = new WeakMap<YAMLMap, Map<unknown, Pair>>();
  const indexOf = (map: YAMLMap): Map<unknown, Pair> => {
    let index = indexes.get(map);
    if (index === undefined) {
      index = new Map();
      // The first pair of a key wins, as in yaml's `findPair`.
      for (const pair of map.items as Pair[]) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        if (!index.has(key)) index.set(key, pair);
      }
      indexes.set(map, index);
    }
    return index;
  };
  const step = (parent: unknown, key: string | number): Pair | Node | undefined => {
    if (isMap(parent)) return indexOf(parent).get(key);
    if (isSeq(parent)) {
      const at = typeof key === 'number' ? key : /^\d+$/.test(key) ? Number(key) : -1;
      return (parent.items[at] as Node | undefined) ?? undefined;
    }
    return undefined;
  };
  const node = (path: readonly (string | number)[]): Node | undefined => {
    let current: unknown = document.contents;
    for (const key of path) {
      const found = step(current, key);
      current = isPair(found) ? found.value : found;
      if (current === undefined || current === null) return undefined;
    }
    return current as Node;
  };
  const pair = (path: readonly (string | number)[]): Pair | undefined => {
    if (path.length === 0) return undefined;
    const parent = node(path.slice(0, -1));
    return isMap(parent) ? indexOf(parent).get(path[path.length - 1]) : undefined;
  };
  const getIn = (path: readonly (string | number)[], keepScalar = false): unknown => {
    const found = node(path);
    return !keepScalar && isScalar(found) ? found.value : found;
  };
  return { node, pair, getIn };
}
