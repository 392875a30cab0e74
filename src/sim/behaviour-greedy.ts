/** The greedy client: reads nothing of an answer, retries as soon as it has one. */
import type { BehaviourRules } from './behaviour.js';

/**
 * Greedy: sends whenever a worker is free and retries a refused request at once.
 * @example
 * import { greedy } from './behaviour-greedy.js';
 * greedy.sharesHold; // false
 */
export const greedy: BehaviourRules = {
  scheduled: false,
  sharesHold: false,
  readsAnswer: false,
  readyAt: (_run, _worker, now) => now,
  retryWait: () => 0,
};
