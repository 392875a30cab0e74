/** Where the memory store keeps each identity's sliding logs: packed in its row, or apart when longer. */
// Hot path: a load and a store per event; bench/limits.mjs guards its speed.
import type { IdentityState } from '../limits/identity-state.js';
import type { LimitsConfig } from '../limits/limits-config.js';
import { LOG_RULES, logPlan } from '../limits/log-rules.js';
import { ageSlot, loadSlot, logSlot, SPILLED } from '../limits/log-slot.js';
import { createSlidingLog, flattenLog, type SlidingLog } from '../limits/sliding-log.js';
import { ROW_LOGS, SLOT } from '../limits/state-layout.js';
import { type ArenaLog, createLogArena } from './log-arena.js';

/** Log rules per row. */
const LOGS = LOG_RULES.length;

/**
 * A row's number for a log kept apart: the arena block, as -(block + 2), below SPILLED (-1) and
 * every packed value, so the row alone says where the log is (SPILLED is what logSlot answers).
 * Worked example: block 0 is -2, block 1,028 is -1,030.
 */
const apartSlot = (block: number): number => -block - 2;
const blockOf = (slot: number): number => -slot - 2;

/**
 * The logs of the memory store's rows. A log of at most one entry lives in the row's number for
 * its rule (log-slot.ts), so an identity that made a request or two costs nothing more; a longer
 * log is a ring in the store's log arena (log-arena.ts), the row's number saying which block, and
 * its block is freed as soon as it is back to one entry. Only
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
  forget(slab: Float64Array, offset: number, row: number): void;
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
  const arena = createLogArena();
  const scratch = Array.from({ length: LOGS }, createSlidingLog);
  /** One view per rule on the arena: an event loads at most one log per rule. */
  const views: ArenaLog[] = Array.from({ length: LOGS }, () => arena.view());
  const book: SlidingLog[] = scratch.slice();
  const reader = createSlidingLog();
  const readerView = arena.view();
  /** Whether the log last loaded for each rule came from the arena. */
  const wasApart = [false, false, false, false, false, false];
  /** The row's log numbers and time as last loaded: the store writes back the untouched ones aged. */
  const slots = [0, 0, 0, 0, 0, 0];
  /** The row's time as last loaded, in a typed array: a number in a closure would be boxed per event. */
  const loaded = new Float64Array(1);

  const loadOne = (i: number, slot: number, at: number): void => {
    if (slot < SPILLED) {
      arena.open(views[i]!, blockOf(slot));
      book[i] = views[i]!;
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
    load(slab, offset, _row, config, mask) {
      const keptMask = logPlan(config).keptMask;
      const at = slab[offset + SLOT.at]!;
      loaded[0] = at;
      for (let i = 0; i < LOGS; i++) {
        const slot = slab[offset + ROW_LOGS + i]!;
        slots[i] = slot;
        if ((mask & (1 << i)) !== 0) loadOne(i, slot, at);
        else if ((keptMask & (1 << i)) === 0) {
          // A rule the config counts in a bucket: stepInto never reads its log.
          book[i] = scratch[i]!;
          loadSlot(scratch[i]!, 0, at);
        }
      }
      return book;
    },
    current: () => book,
    store(slab, offset, _row, config, mask) {
      const plan = logPlan(config);
      const keptMask = plan.keptMask;
      const at = slab[offset + SLOT.at]!;
      const loadedAt = loaded[0]!;
      for (let i = 0; i < LOGS; i++) {
        const bit = 1 << i;
        if ((keptMask & bit) === 0) continue;
        if ((mask & bit) === 0) {
          // Untouched: a packed entry ages with the row's time (a log in the arena stays as it is).
          const aged = ageSlot(slots[i]!, at - loadedAt, plan.spans[i]!);
          if (!Number.isNaN(aged)) {
            slab[offset + ROW_LOGS + i] = aged;
            continue;
          }
          // Too old to pack and still counted (a span of days): kept apart like a longer log.
          loadOne(i, slots[i]!, loadedAt);
        }
        const log = book[i]!;
        const slot = logSlot(log, at);
        if (slot !== SPILLED) {
          // Back to one entry or none: the row's number holds it, the block goes.
          if (wasApart[i]) arena.free((log as ArenaLog).block);
          slab[offset + ROW_LOGS + i] = slot;
          continue;
        }
        // A scratch log is reused by the next event: a log that outgrew the row gets a block.
        if (wasApart[i]) arena.close(log as ArenaLog);
        const block = wasApart[i] ? (log as ArenaLog).block : arena.copy(log);
        slab[offset + ROW_LOGS + i] = apartSlot(block);
      }
    },
    stateOf(state, _row, config) {
      // Its own reader: the sweep reads states between a load and its store.
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
        if (slot < SPILLED) {
          arena.open(readerView, blockOf(slot));
          return flattenLog(readerView, edge);
        }
        loadSlot(reader, slot, state.at);
        return flattenLog(reader, edge);
      });
      return { ...numbersOf(state, config), logs };
    },
    expiresAt(slab, offset, _row, config) {
      const { uses, spans } = logPlan(config);
      const at = slab[offset + SLOT.at]!;
      let latest = 0;
      for (let i = 0; i < LOGS; i++) {
        const slot = uses[i] ? slab[offset + ROW_LOGS + i]! : 0;
        if (slot > 0) {
          loadSlot(reader, slot, at);
          latest = Math.max(latest, reader.buf[reader.base]! + spans[i]!);
        } else if (slot < SPILLED) latest = Math.max(latest, arena.newest(blockOf(slot)) + spans[i]!);
      }
      return latest;
    },
    numbersOf,
    forget(slab, offset) {
      for (let i = 0; i < LOGS; i++) {
        const slot = slab[offset + ROW_LOGS + i]!;
        if (slot < SPILLED) {
          arena.free(blockOf(slot));
          slab[offset + ROW_LOGS + i] = 0;
        }
      }
    },
    clear: () => arena.clear(),
  };
}
