/** A row's sliding logs as IdentityState shows them, and back: what `step` and the memory store's reads need. */
import type { IdentityState } from './identity-state.js';
import {
  BLOCK_CAP,
  BLOCK_HEAD,
  BLOCK_HEADER,
  BLOCK_SIZE,
  BLOCK_SUM,
  FIRST_CAP,
  type LogArena,
} from './log-arena.js';
import type { LogPlan } from './log-rules.js';
import { SLOT_MAX_AGE, SLOT_WEIGHT_SPAN } from './log-slot.js';
import { ROW_LOGS, SLOT } from './state-layout.js';

/** Log rules per row. */
const LOGS = 6;

/**
 * Writes the logs of `state` (flat `[time, weight, ...]` lists) into the row at `offset`, whose
 * time is already `state.at`, for the rules `plan` keeps in a log: a single entry packed in the
 * rule's number (see log-slot.ts), a longer log (or one that does not pack) in a new block of
 * `arena`. The row's numbers of those rules are overwritten.
 * @example
 * import { defaultLimits, step } from 'tollgate/limits';
 * import { LogArena } from './log-arena.js';
 * import { logPlan } from './log-rules.js';
 * import { packLogs } from './row-logs.js';
 * import { packState, STATE_WIDTH } from './state-layout.js';
 * const { state } = step(undefined, { kind: 'admit', key: 'user:octocat', resource: 'core', limit: 5000,
 *   cost: 1, content: false, graphql: false, countsPrimary: true }, 1_700_000_000_000, defaultLimits());
 * const row = new Float64Array(STATE_WIDTH);
 * packState(state, row, 0);
 * packLogs(state, row, 0, new LogArena(), logPlan(defaultLimits())); // row[2] === 1 (one point, age 0)
 */
export function packLogs(
  state: IdentityState,
  row: Float64Array,
  offset: number,
  arena: LogArena,
  plan: LogPlan,
): void {
  const at = row[offset + SLOT.at]!;
  for (let i = 0; i < LOGS; i++) {
    if (!plan.uses[i]) continue;
    const flat = state.logs?.[i] ?? [];
    const entries = flat.length >> 1;
    let slot = 0;
    if (entries === 1) {
      const age = at - flat[0]!;
      const weight = flat[1]!;
      slot =
        age >= 0 && age < SLOT_MAX_AGE && weight < SLOT_WEIGHT_SPAN ? age * SLOT_WEIGHT_SPAN + weight : -1;
    }
    if (entries > 1 || slot < 0) {
      let cap = FIRST_CAP;
      while (cap < entries + 1) cap *= 2;
      const block = arena.allocate(cap);
      const buf = arena.buf;
      let sum = 0;
      for (let j = 0; j < entries; j++) {
        buf[block + BLOCK_HEADER + 2 * j] = flat[2 * j]!;
        buf[block + BLOCK_HEADER + 2 * j + 1] = flat[2 * j + 1]!;
        sum += flat[2 * j + 1]!;
      }
      buf[block + BLOCK_SIZE] = entries;
      buf[block + BLOCK_SUM] = sum;
      slot = -block - 2;
    }
    row[offset + ROW_LOGS + i] = slot;
  }
}

/** Calls `visit(time, weight)` for each entry of the log held in `slot` at row time `at`, oldest first. */
function eachEntry(
  slot: number,
  at: number,
  arena: LogArena,
  visit: (time: number, weight: number) => void,
): void {
  if (slot > 0) {
    const weight = slot % SLOT_WEIGHT_SPAN;
    visit(at - (slot - weight) / SLOT_WEIGHT_SPAN, weight);
    return;
  }
  if (!(slot < -1)) return;
  const block = -slot - 2;
  const buf = arena.buf;
  const cap = buf[block + BLOCK_CAP]!;
  const head = buf[block + BLOCK_HEAD]!;
  const size = buf[block + BLOCK_SIZE]!;
  for (let j = 0; j < size; j++) {
    const entry = block + BLOCK_HEADER + 2 * ((head + j) & (cap - 1));
    visit(buf[entry]!, buf[entry + 1]!);
  }
}

/**
 * The row's six logs as IdentityState shows them (LOG_RULES order, `[time, weight, ...]`): only
 * the entries still counted at the row's time (a log no event read since it was charged may hold
 * entries that have left); empty for the rules `plan` counts in buckets.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { LogArena } from './log-arena.js';
 * import { logPlan } from './log-rules.js';
 * import { rowLogs } from './row-logs.js';
 * const row = new Float64Array(16);
 * row[0] = 1_000;
 * row[2] = 4_194_304_001;
 * rowLogs(row, 0, new LogArena(), logPlan(defaultLimits()))[0]; // [750, 1]
 */
export function rowLogs(row: ArrayLike<number>, offset: number, arena: LogArena, plan: LogPlan): number[][] {
  const at = row[offset + SLOT.at]!;
  const logs: number[][] = [];
  for (let i = 0; i < LOGS; i++) {
    const flat: number[] = [];
    const edge = at - plan.spans[i]!;
    if (plan.uses[i])
      eachEntry(row[offset + ROW_LOGS + i]!, at, arena, (time, weight) => {
        if (time > edge) flat.push(time, weight);
      });
    logs.push(flat);
  }
  return logs;
}

/**
 * When the row's logs are all empty (0 for none): each log's newest entry leaves one span after it.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { LogArena } from './log-arena.js';
 * import { logPlan } from './log-rules.js';
 * import { rowLogsExpireAt } from './row-logs.js';
 * const row = new Float64Array(16);
 * row[0] = 1_000;
 * row[2] = 4_194_304_001;
 * rowLogsExpireAt(row, 0, new LogArena(), logPlan(defaultLimits())); // 60750
 */
export function rowLogsExpireAt(
  row: ArrayLike<number>,
  offset: number,
  arena: LogArena,
  plan: LogPlan,
): number {
  const at = row[offset + SLOT.at]!;
  let latest = 0;
  for (let i = 0; i < LOGS; i++) {
    const slot = plan.uses[i] ? row[offset + ROW_LOGS + i]! : 0;
    if (slot > 0) {
      const weight = slot % SLOT_WEIGHT_SPAN;
      latest = Math.max(latest, at - (slot - weight) / SLOT_WEIGHT_SPAN + plan.spans[i]!);
    } else if (slot < -1) latest = Math.max(latest, arena.newest(-slot - 2) + plan.spans[i]!);
  }
  return latest;
}

/**
 * Frees the blocks of the row's logs kept in `arena` (a dropped row), writing 0 in their place.
 * @example
 * import { LogArena } from './log-arena.js';
 * import { freeRowLogs } from './row-logs.js';
 * freeRowLogs(new Float64Array(16), 0, new LogArena());
 */
export function freeRowLogs(row: Float64Array, offset: number, arena: LogArena): void {
  for (let i = 0; i < LOGS; i++) {
    const slot = row[offset + ROW_LOGS + i]!;
    if (slot < -1) {
      arena.release(-slot - 2);
      row[offset + ROW_LOGS + i] = 0;
    }
  }
}
