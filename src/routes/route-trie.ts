/** The route trie: templates merged by position, the input of the automaton's subset construction. */
import type { TemplateSegment } from './parse-template.js';

/**
 * A trie node: the routes whose template ends here, by method, and the children by kind of the
 * next segment. Parameters are keyed by position, not name, so `/repos/{owner}/{repo}/issues` and
 * `/repos/{template_owner}/{template_repo}/generate` share the `param` children of `repos`.
 */
export interface TrieNode {
  /** Unique per trie; the automaton names its states by lists of these. */
  readonly id: number;
  readonly statics: Map<string, TrieNode>;
  param: TrieNode | null;
  /** The node a trailing multi-segment parameter reaches after one or more segments. */
  multi: TrieNode | null;
  /** True for a multi-segment node: any further segment leads back to it. */
  readonly loops: boolean;
  /** Method to index of the route (in the compileRoutes input) whose template ends here. */
  readonly routes: Map<string, number>;
  /** Method to template, for the message when a second template lands on the same node. */
  readonly templates: Map<string, string>;
}

/** A trie of one root node, and a counter for node ids. */
export interface RouteTrie {
  readonly root: TrieNode;
  size: number;
}

function createNode(trie: RouteTrie, loops: boolean): TrieNode {
  const id = trie.size++;
  return { id, statics: new Map(), param: null, multi: null, loops, routes: new Map(), templates: new Map() };
}

/**
 * An empty trie.
 * @example
 * import { createRouteTrie } from './route-trie.js';
 * const trie = createRouteTrie();
 * trie.size; // 1: the root
 */
export function createRouteTrie(): RouteTrie {
  const trie: { root: TrieNode | null; size: number } = { root: null, size: 0 };
  trie.root = createNode(trie as RouteTrie, false);
  return trie as RouteTrie;
}

/**
 * Adds route `index` for `method` along the template's segments. Two templates of one method that
 * reach the same node differ only in parameter names (or not at all), so no path could ever tell
 * them apart: the second is not added, and the index of the first is returned.
 * @example
 * import { parseTemplate } from './parse-template.js';
 * import { createRouteTrie, insertRoute } from './route-trie.js';
 * const trie = createRouteTrie();
 * insertRoute(trie, 0, 'GET', '/users/{username}', parseTemplate('/users/{username}')); // undefined: added
 * insertRoute(trie, 1, 'GET', '/users/{user}', parseTemplate('/users/{user}')); // 0: no path tells it from route 0
 */
export function insertRoute(
  trie: RouteTrie,
  index: number,
  method: string,
  template: string,
  segments: readonly TemplateSegment[],
): number | undefined {
  let node = trie.root;
  for (const segment of segments) {
    if (segment.kind === 'static') {
      let next = node.statics.get(segment.text);
      if (next === undefined) {
        next = createNode(trie, false);
        node.statics.set(segment.text, next);
      }
      node = next;
    } else if (segment.kind === 'param') {
      node.param ??= createNode(trie, false);
      node = node.param;
    } else {
      node.multi ??= createNode(trie, true);
      node = node.multi;
    }
  }
  const previous = node.routes.get(method);
  if (previous !== undefined) return previous;
  node.routes.set(method, index);
  node.templates.set(method, template);
  return undefined;
}
