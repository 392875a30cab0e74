/** The polite client: follows the seed's client rules, and holds every worker while told to wait. */
import { retryDelay } from '../limits/retry-delay.js';
import type { BehaviourRules } from './behaviour.js';

/**
 * Polite: waits what `retryDelay` says (seed 000, "Client behaviour when limited", rules 1-4),
 * every worker together (rule 5: sending while limited may get an integration banned), and gives
 * a request up after `retry.maxRetries` failures (default 5).
 * @example
 * import { polite } from './behaviour-polite.js';
 * polite.sharesHold; // true
 */
export const polite: BehaviourRules = {
  scheduled: false,
  sharesHold: true,
  readsAnswer: true,
  readyAt: (_run, _worker, now) => now,
  retryWait: (run, worker, response, answeredAt) => {
    const retry = run.spec.retry;
    return retryDelay(response, worker.attempt, {
      now: answeredAt,
      ...(retry?.maxRetries === undefined ? {} : { maxRetries: retry.maxRetries }),
      ...(retry?.minWaitSeconds === undefined ? {} : { minWaitSeconds: retry.minWaitSeconds }),
      ...(retry?.backoffFactor === undefined ? {} : { backoffFactor: retry.backoffFactor }),
    });
  },
};
