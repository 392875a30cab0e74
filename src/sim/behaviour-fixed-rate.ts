/** The fixed-rate client: sends on its schedule whatever the answers say. */
import type { BehaviourRules } from './behaviour.js';

/**
 * Fixed-rate: one request per interval per worker, never waiting for answers, never retrying.
 * @example
 * import { fixedRate } from './behaviour-fixed-rate.js';
 * fixedRate.scheduled; // true
 */
export const fixedRate: BehaviourRules = {
  scheduled: true,
  sharesHold: false,
  readsAnswer: false,
  readyAt: (_run, _worker, now) => now,
  retryWait: () => null,
};
