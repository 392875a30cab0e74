/** Compiles the route trie into a deterministic automaton (subset construction), so matching never backtracks. */
import { TollgateError } from '../core/errors.js';
import { buildEdgeIndex, type EdgeIndex } from './edge-index.js';
import { buildEdgeTable, type EdgeTable } from './edge-table.js';
import type { TrieNode } from './route-trie.js';

/** A state of the automaton: where to go on the next segment, and which route wins if the path ends here. */
export interface State {
  /** Transitions on the static segments some node of this state mentions. */
  readonly next: Map<string, State>;
  /** Transition on any other segment; null when nothing can match any more. */
  other: State | null;
  /** Method to route index: the first node of this state's list with a route for the method. */
  readonly leaves: Map<string, number>;
  /** `next` indexed for lookup by offsets in the target (filled once `next` is complete). */
  edges: EdgeIndex<State>;
  /** `next` again as one open-addressed array: the fast path's lookup, fewer objects to read. */
  table: EdgeTable<State>;
  /** `leaves` as two parallel arrays, a few `===` being cheaper than hashing the method. */
  readonly methods: readonly string[];
  readonly routes: readonly number[];
}

const NO_EDGES: EdgeIndex<State> = buildEdgeIndex(new Map());
const NO_TABLE: EdgeTable<State> = buildEdgeTable(new Map());

/** The compiled automaton and its size. */
export interface Automaton {
  readonly start: State;
  readonly stateCount: number;
}

// The trie nodes reached from `nodes` by one segment, in priority order. Each node contributes its
// children static < param < multi; a multi-segment node contributes itself (it eats the segment).
// Appending children node by node keeps the list in lexicographic priority order: every path
// through an earlier node beats every path through a later one, as a backtracking matcher that
// tries static, then param, then multi would find.
function step(nodes: readonly TrieNode[], segment: string | null): TrieNode[] {
  const out: TrieNode[] = [];
  const add = (node: TrieNode | null | undefined): void => {
    if (node != null && !out.includes(node)) out.push(node);
  };
  for (const node of nodes) {
    if (node.loops) {
      add(node);
      continue;
    }
    if (segment !== null) add(node.statics.get(segment));
    add(node.param);
    add(node.multi);
  }
  return out;
}

function leavesOf(nodes: readonly TrieNode[]): Map<string, number> {
  const leaves = new Map<string, number>();
  for (const node of nodes) {
    for (const [method, index] of node.routes) if (!leaves.has(method)) leaves.set(method, index);
  }
  return leaves;
}

/**
 * Subset construction. A state is an ordered list of trie nodes; the start state is `[root]`; on
 * segment `s` a state goes to `step(list, s)` for each static `s` its nodes mention, and to
 * `step(list, null)` on any other segment. States are memoized by their lists' node ids, and all
 * are built here, at load, so a match is one lookup per segment (`table` in place on the fast
 * path, the `next` Map on the careful one).
 *
 * Worked example, two POST routes:
 *   A `/orgs/{org}/actions/hosted-runners`, B `/orgs/{org}/{security_product}/{enablement}`
 * Trie: n0 -orgs-> n1 -{}-> n2; n2 -actions-> n3 -hosted-runners-> n4 (A); n2 -{}-> n5 -{}-> n6 (B).
 * States:
 *   [n0]     -orgs-> [n1]   -any-> [n2]
 *   [n2]     -actions-> [n3, n5]   -other-> [n5]
 *   [n3, n5] -hosted-runners-> [n4, n6] (POST: A, n4 comes first)   -other-> [n6] (POST: B)
 *   [n5]     -any-> [n6] (POST: B)
 * So `/orgs/x/actions/hosted-runners` ends in [n4, n6] and gets A, while `/orgs/x/actions/whatever`
 * ends in [n6] and gets B: the answer of a backtracking matcher, without backtracking.
 * A multi-segment node m stays in every later list: [m] -any-> [m].
 *
 * Throws TollgateError `TOLLGATE_INVALID_TABLE` past `maxStates` (a table that ambiguous is a mistake).
 * @example
 * import { buildAutomaton } from './build-automaton.js';
 * import { parseTemplate } from './parse-template.js';
 * import { createRouteTrie, insertRoute } from './route-trie.js';
 * const trie = createRouteTrie();
 * insertRoute(trie, 0, 'GET', '/user/repos', parseTemplate('/user/repos'));
 * buildAutomaton(trie.root).stateCount; // 3
 */
export function buildAutomaton(root: TrieNode, maxStates = 100_000): Automaton {
  const states = new Map<string, State>();
  const pending: [readonly TrieNode[], State][] = [];
  const intern = (nodes: readonly TrieNode[]): State | null => {
    if (nodes.length === 0) return null;
    const key = nodes.map((node) => node.id).join(',');
    let state = states.get(key);
    if (state === undefined) {
      if (states.size >= maxStates) {
        throw new TollgateError(
          'TOLLGATE_INVALID_TABLE',
          `route table: more than ${maxStates} matcher states`,
        );
      }
      const leaves = leavesOf(nodes);
      const methods = [...leaves.keys()];
      const routes = [...leaves.values()];
      state = { next: new Map(), other: null, leaves, edges: NO_EDGES, table: NO_TABLE, methods, routes };
      states.set(key, state);
      pending.push([nodes, state]);
    }
    return state;
  };
  const start = intern([root])!;
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const [nodes, state] = item;
    state.other = intern(step(nodes, null));
    const seen = new Set<string>();
    for (const node of nodes) {
      for (const segment of node.statics.keys()) {
        if (seen.has(segment)) continue;
        seen.add(segment);
        const target = intern(step(nodes, segment));
        // A static that leads where `other` does needs no entry of its own.
        if (target !== null && target !== state.other) state.next.set(segment, target);
      }
    }
  }
  for (const state of states.values()) {
    if (state.next.size === 0) continue;
    state.edges = buildEdgeIndex(state.next);
    state.table = buildEdgeTable(state.next);
  }
  return { start, stateCount: states.size };
}

/**
 * The route a state gives `method` (exact, case-sensitive), or -1.
 * @example
 * import { buildAutomaton, routeFor } from './build-automaton.js';
 * import { createRouteTrie, insertRoute } from './route-trie.js';
 * const trie = createRouteTrie();
 * insertRoute(trie, 0, 'GET', '/', []);
 * const { start } = buildAutomaton(trie.root);
 * routeFor(start, 'GET'); // 0
 * routeFor(start, 'HEAD'); // -1
 */
export function routeFor(state: State, method: string): number {
  const methods = state.methods;
  for (let i = 0; i < methods.length; i++) if (methods[i] === method) return state.routes[i]!;
  return -1;
}
