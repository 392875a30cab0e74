/** The automaton laid out for the fast path: every state's edges and routes, and every route's parameter steps, in one array; every state's numbers in one Int32Array. */
// Hot path: locateRoute walks this on every plain request; the bench guards it. Profiled, the
// walk's time went to first reads (a state object, its table, the table's array, the state's
// method list, the route's parameter plan and its array): each a separate object somewhere in the
// heap. Here a match reads two arrays, the statics' texts and nothing else of the tables.
import type { State } from './build-automaton.js';
import type { ParamPlan } from './param-plan.js';

/** Per state, `INFO_WIDTH` numbers in `info`: at `INFO_BASE` its edge table's first cell in `cells`. */
export const INFO_BASE = 0;
/** At `INFO_MASK`: its edge table's mask (slot count minus one). */
export const INFO_MASK = 1;
/** At `INFO_OTHER`: the number of the state any other segment leads to, or -1 for none. */
export const INFO_OTHER = 2;
/** At `INFO_LEAVES`: its first leaf in `cells` (see LEAF_WIDTH). */
export const INFO_LEAVES = 3;
/** Numbers per state in `info`. */
export const INFO_WIDTH = 4;
/**
 * Cells per leaf: the method, the route, then where the route's parameter steps start and end in
 * `cells` (see readParamsAt). A state's leaves end at a null cell.
 */
export const LEAF_WIDTH = 4;

/** The flat automaton: states are numbers, the start state is 0. */
export interface FlatAutomaton {
  /**
   * Cells 0 and 1 are null (the empty edge table, and the end of an empty leaf list); then each
   * route's parameter steps; then per state its edge table (slots of a static's text, null when
   * empty, and its target state's number) and its leaves.
   */
  readonly cells: readonly (string | number | null)[];
  /** `INFO_WIDTH` numbers per state (see INFO_BASE, INFO_MASK, INFO_OTHER, INFO_LEAVES). */
  readonly info: Int32Array;
}

/**
 * Numbers the states reachable from `start` (start is 0) and lays them out with the routes'
 * parameter plans. A state without statics points at the shared empty slot, one without routes at
 * the shared end of leaves.
 * @example
 * import { buildAutomaton } from './build-automaton.js';
 * import { flattenAutomaton, INFO_OTHER, INFO_WIDTH } from './flat-automaton.js';
 * import { planParams } from './param-plan.js';
 * import { parseTemplate } from './parse-template.js';
 * import { createRouteTrie, insertRoute } from './route-trie.js';
 * const segments = parseTemplate('/users/{username}');
 * const trie = createRouteTrie();
 * insertRoute(trie, 0, 'GET', '/users/{username}', segments);
 * const flat = flattenAutomaton(buildAutomaton(trie.root).start, [planParams(segments)]);
 * flat.info.length / INFO_WIDTH; // 3 states
 * flat.info[INFO_OTHER]; // -1: from the start, only `users` leads on
 */
export function flattenAutomaton(start: State, plans: readonly ParamPlan[]): FlatAutomaton {
  const numbers = new Map<State, number>([[start, 0]]);
  const states: State[] = [start];
  const number = (state: State): number => {
    let n = numbers.get(state);
    if (n === undefined) {
      n = states.length;
      numbers.set(state, n);
      states.push(state);
    }
    return n;
  };
  for (let s = 0; s < states.length; s++) {
    const state = states[s]!;
    for (const next of state.next.values()) number(next);
    if (state.other !== null) number(state.other);
  }
  const cells: (string | number | null)[] = [null, null];
  const stepsAt = plans.map((plan) => {
    const at = cells.length;
    cells.push(...plan.steps);
    return at;
  });
  const info = new Int32Array(states.length * INFO_WIDTH);
  for (let s = 0; s < states.length; s++) {
    const state = states[s]!;
    const at = s * INFO_WIDTH;
    info[at + INFO_OTHER] = state.other === null ? -1 : numbers.get(state.other)!;
    if (state.next.size > 0) {
      const table = state.table;
      info[at + INFO_BASE] = cells.length;
      info[at + INFO_MASK] = table.mask;
      for (let i = 0; i < table.slots.length; i += 2) {
        const text = table.slots[i] as string | null;
        cells.push(text, text === null ? null : numbers.get(table.slots[i + 1] as State)!);
      }
    } // else base 0, mask 0: the shared empty slot
    if (state.methods.length > 0) {
      info[at + INFO_LEAVES] = cells.length;
      for (let i = 0; i < state.methods.length; i++) {
        const route = state.routes[i]!;
        cells.push(state.methods[i]!, route, stepsAt[route]!, stepsAt[route]! + plans[route]!.steps.length);
      }
      cells.push(null);
    } else info[at + INFO_LEAVES] = 1; // the shared end of leaves
  }
  return { cells, info };
}
