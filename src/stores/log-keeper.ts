/** Where the memory store keeps each identity's sliding logs: packed in its row, or apart when longer. */
// Hot path: a load and a store per event; bench/limits.mjs guards its speed.
import type { IdentityState } from '../limits/identity-state.js';
import type { LimitsConfig } from '../limits/limits-config.js';
import { LOG_RULES, logPlan } from '../limits/log-rules.js';
import { ageSlot, loadSlot, logSlot, SPILLED } from '../limits/log-slot.js';
import { createSlidingLog, flattenLog, type SlidingLog } from '../limits/sliding-log.js';
import { ROW_LOGS, SLOT } from '../limits/state-layout.js';

/** Log rules per row: `apart` keeps a row's logs side by side, at `row * LOGS + rule`. */
const LOGS = LOG_RULES.length;

/**
 * The logs of the memory store's rows. A log of at most one entry lives in the row's number for
 * its rule (log-slot.ts), so an identity that made a request or two costs nothing more; a longer
 * log is an array pair kept by row and rule, and freed as soon as it is back to one entry. Only
 * the logs an event touches (a bit mask, see eventLogs) are loaded and written back: the others
 * keep their entries, a packed one aged to the row's new time (ageSlot).
 */
export interface LogKeeper {
  /** Loads the logs in `mask` of the row at `offset` (`row` -1: a new identity), ready for stepInto. */
  load(
    slab: ArrayLike<number>,
    offset: number,
    row: number,
    config: LimitsConfig,
    mask: number,
  ): readonly SlidingLog[];
  /** The logs last loaded, as a transition left them (a second transition in the same call reads them). */
  current(): readonly SlidingLog[];
  /** Writes back into the row at `offset`, after a state change, the logs last loaded (`mask` as given to load). */
  store(slab: Float64Array, offset: number, row: number, config: LimitsConfig, mask: number): void;
  /** The row's state as IdentityState: logs unpacked (only entries still counted), their row numbers 0. */
  stateOf(state: IdentityState, row: number, config: LimitsConfig): IdentityState;
  /** When the row's logs are all empty (0 for none): its newest entries leave one span after them. */
  expiresAt(slab: ArrayLike<number>, offset: number, row: number, config: LimitsConfig): number;
  /** The row's numbers as IdentityState without its logs: those of the rules counted in logs 0. */
  numbersOf(state: IdentityState, config: LimitsConfig): IdentityState;
  /** Frees the logs of a dropped row. */
  forget(slab: ArrayLike<number>, offset: number, row: number): void;
  clear(): void;
}

/**
 * A LogKeeper.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { createLogKeeper } from './log-keeper.js';
 * const keeper = createLogKeeper();
 * keeper.load(new Float64Array(16), 0, -1, defaultLimits(), 0b111111).length; // 6
 */
export function createLogKeeper(): LogKeeper {
  /**
   * Logs longer than one entry: `apart[row * 6 + rule]`. One array, not a Map by key: an element
   * read costs no hashing, and a row's six logs share a cache line or two.
   */
  let apart: (SlidingLog | undefined)[] = [];
  const scratch = Array.from({ length: LOGS }, createSlidingLog);
  const book: SlidingLog[] = scratch.slice();
  const reader = createSlidingLog();
  /** Whether the log last loaded for each rule came from `apart` (its row's number is SPILLED). */
  const wasApart = [false, false, false, false, false, false];
  /** The row's log numbers and time as last loaded: the store writes back the untouched ones aged. */
  const slots = [0, 0, 0, 0, 0, 0];
  let loadedAt = 0;

  const loadOne = (i: number, slot: number, row: number, at: number): void => {
    const kept = slot === SPILLED && row >= 0 ? apart[row * LOGS + i] : undefined;
    if (kept !== undefined) {
      book[i] = kept;
      wasApart[i] = true;
    } else {
      loadSlot(scratch[i]!, slot, at);
      book[i] = scratch[i]!;
      wasApart[i] = false;
    }
  };
  // The state's numbers with each rule a log keeps zeroed: the log holds that rule's count.
  const numbersOf = (state: IdentityState, config: LimitsConfig): IdentityState => {
    const uses = logPlan(config).uses;
    return {
      ...state,
      restPoints: uses[0] ? 0 : state.restPoints,
      graphqlPoints: uses[1] ? 0 : state.graphqlPoints,
      cpu: 0,
      graphqlCpu: 0,
      contentMinute: uses[4] ? 0 : state.contentMinute,
      contentHour: uses[5] ? 0 : state.contentHour,
    };
  };
  return {
    load(slab, offset, row, config, mask) {
      const keptMask = logPlan(config).keptMask;
      const at = slab[offset + SLOT.at]!;
      loadedAt = at;
      for (let i = 0; i < LOGS; i++) {
        const slot = slab[offset + ROW_LOGS + i]!;
        slots[i] = slot;
        if ((mask & (1 << i)) !== 0) loadOne(i, slot, row, at);
        else if ((keptMask & (1 << i)) === 0) {
          // A rule the config counts in a bucket: stepInto never reads its log.
          book[i] = scratch[i]!;
          loadSlot(scratch[i]!, 0, at);
        }
      }
      return book;
    },
    current: () => book,
    store(slab, offset, row, config, mask) {
      const plan = logPlan(config);
      const keptMask = plan.keptMask;
      const at = slab[offset + SLOT.at]!;
      for (let i = 0; i < LOGS; i++) {
        const bit = 1 << i;
        if ((keptMask & bit) === 0) continue;
        if ((mask & bit) === 0) {
          // Untouched: a packed entry ages with the row's time (a spilled log stays as it is).
          const aged = ageSlot(slots[i]!, at - loadedAt, plan.spans[i]!);
          if (aged === aged) {
            slab[offset + ROW_LOGS + i] = aged;
            continue;
          }
          // Too old to pack and still counted (a span of days): kept apart like a longer log.
          loadOne(i, slots[i]!, row, loadedAt);
        }
        const log = book[i]!;
        const slot = logSlot(log, at);
        slab[offset + ROW_LOGS + i] = slot;
        if (slot !== SPILLED) {
          // Back to one entry or none: the row's number holds it, the arrays go.
          if (wasApart[i]) apart[row * LOGS + i] = undefined;
          continue;
        }
        // A scratch log is reused by the next event: a log that outgrew the row gets its own arrays.
        if (log === scratch[i])
          apart[row * LOGS + i] = {
            times: log.times.slice(log.head),
            weights: log.weights.slice(log.head),
            head: 0,
            sum: log.sum,
          };
      }
    },
    stateOf(state, row, config) {
      // Its own logs: the sweep reads states between a load and its store.
      const { uses, spans } = logPlan(config);
      const numbers = [
        state.restPoints,
        state.graphqlPoints,
        state.cpu,
        state.graphqlCpu,
        state.contentMinute,
        state.contentHour,
      ];
      // A log no event read since it was charged may hold entries that have left: not shown.
      const logs = numbers.map((slot, i) => {
        if (!uses[i]) return [];
        const edge = state.at - spans[i]!;
        const kept = slot === SPILLED ? apart[row * LOGS + i] : undefined;
        if (kept !== undefined) return flattenLog(kept, edge);
        loadSlot(reader, slot, state.at);
        return flattenLog(reader, edge);
      });
      return { ...numbersOf(state, config), logs };
    },
    expiresAt(slab, offset, row, config) {
      const { uses, spans } = logPlan(config);
      const at = slab[offset + SLOT.at]!;
      let latest = 0;
      for (let i = 0; i < LOGS; i++) {
        const slot = uses[i] ? slab[offset + ROW_LOGS + i]! : 0;
        if (slot > 0) {
          loadSlot(reader, slot, at);
          latest = Math.max(latest, reader.times[0]! + spans[i]!);
        } else if (slot === SPILLED) {
          const kept = apart[row * LOGS + i];
          if (kept !== undefined && kept.times.length > kept.head)
            latest = Math.max(latest, kept.times[kept.times.length - 1]! + spans[i]!);
        }
      }
      return latest;
    },
    numbersOf,
    forget(slab, offset, row) {
      for (let i = 0; i < LOGS; i++)
        if (slab[offset + ROW_LOGS + i] === SPILLED) apart[row * LOGS + i] = undefined;
    },
    clear: () => {
      apart = [];
    },
  };
}
