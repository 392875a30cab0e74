/** Where the memory store keeps each identity's sliding logs: packed in its row, or apart when longer. */
// Hot path: a load and a store per event; bench/limits.mjs guards its speed.
import type { IdentityState } from '../limits/identity-state.js';
import type { LimitsConfig } from '../limits/limits-config.js';
import { logPlan } from '../limits/log-rules.js';
import { loadSlot, logSlot, SPILLED } from '../limits/log-slot.js';
import type { SlidingLog } from '../limits/sliding-log.js';
import { createSlidingLog, flattenLog } from '../limits/sliding-log.js';

/**
 * The logs of the memory store's rows. A log of at most one entry lives in the row's number for
 * its rule (log-slot.ts), so an identity that made a request or two costs nothing more; a longer
 * log is an array pair kept by row and rule, and freed as soon as it is back to one entry.
 */
export interface LogKeeper {
  /** The six logs of the row at `offset` (`row` -1: a new identity), ready for stepInto. */
  load(slab: ArrayLike<number>, offset: number, row: number, config: LimitsConfig): readonly SlidingLog[];
  /** The logs last loaded, as a transition left them (a second transition in the same call reads them). */
  current(): readonly SlidingLog[];
  /** Writes back the logs last loaded, into the row at `offset`, after a state change. */
  store(slab: Float64Array, offset: number, row: number, config: LimitsConfig): void;
  /** The row's state as IdentityState: logs unpacked, their row numbers 0 (as `step` shows them). */
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
 * keeper.load(new Float64Array(16), 0, -1, defaultLimits()).length; // 6
 */
export function createLogKeeper(): LogKeeper {
  /**
   * Logs longer than one entry: `apart[rule][row]`. Arrays by row, not a Map by `row * 6 + rule`:
   * an element read costs no hashing, and every event reads one per log rule.
   */
  let apart: (SlidingLog | undefined)[][] = Array.from({ length: 6 }, () => []);
  const scratch = Array.from({ length: 6 }, createSlidingLog);
  const book: SlidingLog[] = scratch.slice();
  const reader = createSlidingLog();
  /** Whether the log last loaded for each rule came from `apart` (its row's number is SPILLED). */
  const wasApart = [false, false, false, false, false, false];
  const fromRow = (slab: ArrayLike<number>, offset: number, row: number, config: LimitsConfig) => {
    // Only the logs the config keeps: the others stay the empty scratch logs they start as
    // (stepInto reads and writes a log only when the config keeps it).
    const keptLogs = logPlan(config).kept;
    const at = slab[offset]!;
    for (let k = 0; k < keptLogs.length; k++) {
      const i = keptLogs[k]!;
      const slot = slab[offset + 2 + i]!;
      const kept = slot === SPILLED && row >= 0 ? apart[i]![row] : undefined;
      if (kept !== undefined) {
        book[i] = kept;
        wasApart[i] = true;
      } else {
        loadSlot(scratch[i]!, slot, at);
        book[i] = scratch[i]!;
        wasApart[i] = false;
      }
    }
    return book;
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
    load: fromRow,
    current: () => book,
    store(slab, offset, row, config) {
      const keptLogs = logPlan(config).kept;
      const at = slab[offset]!;
      for (let k = 0; k < keptLogs.length; k++) {
        const i = keptLogs[k]!;
        const log = book[i]!;
        const slot = logSlot(log, at);
        slab[offset + 2 + i] = slot;
        if (slot !== SPILLED) {
          // Back to one entry or none: the row's number holds it, the arrays go.
          if (wasApart[i]) apart[i]![row] = undefined;
          continue;
        }
        // A scratch log is reused by the next event: a log that outgrew the row gets its own arrays.
        if (log === scratch[i])
          apart[i]![row] = {
            times: log.times.slice(log.head),
            weights: log.weights.slice(log.head),
            head: 0,
            sum: log.sum,
          };
      }
    },
    stateOf(state, row, config) {
      // Its own logs: the sweep reads states between a load and its store.
      const uses = logPlan(config).uses;
      const slots = [
        state.restPoints,
        state.graphqlPoints,
        state.cpu,
        state.graphqlCpu,
        state.contentMinute,
        state.contentHour,
      ];
      const logs = slots.map((slot, i) => {
        if (!uses[i]) return [];
        const kept = slot === SPILLED ? apart[i]![row] : undefined;
        if (kept !== undefined) return flattenLog(kept);
        loadSlot(reader, slot, state.at);
        return flattenLog(reader);
      });
      return { ...numbersOf(state, config), logs };
    },
    expiresAt(slab, offset, row, config) {
      const { uses, spans } = logPlan(config);
      const at = slab[offset]!;
      let latest = 0;
      for (let i = 0; i < 6; i++) {
        const slot = uses[i] ? slab[offset + 2 + i]! : 0;
        if (slot > 0) {
          loadSlot(reader, slot, at);
          latest = Math.max(latest, reader.times[0]! + spans[i]!);
        } else if (slot === SPILLED) {
          const kept = apart[i]![row];
          if (kept !== undefined && kept.times.length > kept.head)
            latest = Math.max(latest, kept.times[kept.times.length - 1]! + spans[i]!);
        }
      }
      return latest;
    },
    numbersOf,
    forget(slab, offset, row) {
      for (let i = 0; i < 6; i++) if (slab[offset + 2 + i] === SPILLED) apart[i]![row] = undefined;
    },
    clear: () => {
      apart = Array.from({ length: 6 }, () => []);
    },
  };
}
