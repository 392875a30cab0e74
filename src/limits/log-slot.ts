/** A log of one entry kept inside the identity's row: what keeps an idle identity small in a store. */
//
// Most identities hold one entry per log (one request in the last minute). A store keeps such a
// log in the rule's number of the row instead of an array: 0 for an empty log, age x 2^24 + weight
// for a single entry (age = the identity's time minus the entry's, both whole ms), and a negative
// number when the log is kept apart (more entries, or one too heavy or too old to pack: SPILLED in
// the Redis script, -(block + 2) in the memory store; see open-logs.ts). Every value is an integer
// below 2^53, so the memory store and the Redis script pack it alike.
// Worked example: one GET 250 ms before the identity's time: 250 x 16,777,216 + 1 = 4,194,304,001.
import type { SlidingLog } from './sliding-log.js';

/** Weights below this pack into a slot. */
export const SLOT_WEIGHT_SPAN = 16_777_216;
/** Ages below this pack into a slot (6.2 days, beyond every window the seed states). */
export const SLOT_MAX_AGE = 536_870_912;
/** The slot value of a log the Redis script keeps apart (in a key of its own). */
export const SPILLED = -1;

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
