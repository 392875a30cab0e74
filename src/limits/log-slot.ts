/** A log of one entry kept inside the identity's row: what keeps an idle identity small in a store. */
// Hot path: once per log rule per event in the stores; bench/limits.mjs guards its speed.
//
// Most identities hold one entry per log (one request in the last minute). A store keeps such a
// log in the rule's number of the row instead of an array: 0 for an empty log, age x 2^24 + weight
// for a single entry (age = the identity's time minus the entry's, both whole ms), -1 when the
// log is kept apart (more entries, or one too heavy or too old to pack). Every value is an
// integer below 2^53, so the memory store and the Redis script pack it alike.
// Worked example: one GET 250 ms before the identity's time: 250 x 16,777,216 + 1 = 4,194,304,001.
import { entryAt, type SlidingLog } from './sliding-log.js';

/** Weights below this pack into a slot. */
export const SLOT_WEIGHT_SPAN = 16_777_216;
/** Ages below this pack into a slot (6.2 days, beyond every window the seed states). */
const SLOT_MAX_AGE = 536_870_912;
/** The slot value of a log kept apart. */
export const SPILLED = -1;

/**
 * The slot value of `log` at identity time `at`: 0, a packed single entry, or SPILLED.
 * @example
 * import { chargeLog, createSlidingLog } from './sliding-log.js';
 * import { logSlot } from './log-slot.js';
 * const log = createSlidingLog();
 * chargeLog(log, 750, 1, 1);
 * logSlot(log, 1_000); // 4194304001
 */
export function logSlot(log: SlidingLog, at: number): number {
  const size = log.size;
  if (size === 0) return 0;
  if (size > 1) return SPILLED;
  const first = entryAt(log, 0);
  const age = at - log.buf[first]!;
  const weight = log.buf[first + 1]!;
  return age >= 0 && age < SLOT_MAX_AGE && weight < SLOT_WEIGHT_SPAN
    ? age * SLOT_WEIGHT_SPAN + weight
    : SPILLED;
}

/**
 * Loads the log a slot value holds (0 or a packed entry) into `log`, at identity time `at`.
 * @example
 * import { createSlidingLog } from './sliding-log.js';
 * import { loadSlot } from './log-slot.js';
 * const log = createSlidingLog();
 * loadSlot(log, 4_194_304_001, 1_000);
 * log.buf[0]; // 750 (its time)
 */
export function loadSlot(log: SlidingLog, slot: number, at: number): void {
  log.head = 0;
  if (!(slot > 0)) {
    log.size = 0;
    log.sum = 0;
    return;
  }
  const weight = slot % SLOT_WEIGHT_SPAN;
  // A ring always has room for one entry (cap >= 1).
  log.buf[log.base] = at - (slot - weight) / SLOT_WEIGHT_SPAN;
  log.buf[log.base + 1] = weight;
  log.size = 1;
  log.sum = weight;
}

/**
 * A slot value (0, a packed entry or SPILLED) as the identity's time moves `by` ms forward (>= 0)
 * with no event reading the log: the packed entry ages, and is gone (0) once it has left, `spanMs`
 * after its stamp, as if the log had been settled. SPILLED stays: the log kept apart is unchanged.
 * NaN when the entry, still counted, grew too old to pack (a span of days): load it instead.
 * @example
 * import { ageSlot } from './log-slot.js';
 * ageSlot(4_194_304_001, 1_000, 60_000); // 20971520001 (one entry, 1,250 ms old)
 * ageSlot(4_194_304_001, 59_750, 60_000); // 0 (it left)
 */
export function ageSlot(slot: number, by: number, spanMs: number): number {
  if (!(slot > 0) || by === 0) return slot;
  const weight = slot % SLOT_WEIGHT_SPAN;
  const age = (slot - weight) / SLOT_WEIGHT_SPAN + by;
  if (age >= spanMs) return 0;
  return age < SLOT_MAX_AGE ? age * SLOT_WEIGHT_SPAN + weight : Number.NaN;
}
