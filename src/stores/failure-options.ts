/** The failure options a store's guard takes (the Redis store's, and `guardStore`'s for a store of your own), checked once. */
import { TollgateError } from '../core/errors.js';
import type { FailureMode, FailurePolicyOptions } from './redis-failure-policy.js';

/** What a guard does when its store is slow, down or failing. */
export interface FailureOptions {
  /** How long the store may take to answer (an event, a state read) before the failure mode decides, in ms. Default 50. */
  readonly timeoutMs?: number;
  /**
   * When the store is slow or failing: `fail-closed` (default: refuse with 503), `fail-open`
   * (admit unchecked) or `fallback` (decide with a local memory store until the store answers
   * again). The verdict's `degraded` says which applied.
   */
  readonly onFailure?: FailureMode;
  /**
   * After a failure, the failure mode decides at once, without asking the store, for this many ms
   * (default 1,000); only until the store answers again (late answers count) when it had answered
   * a call in time since the last pause.
   */
  readonly retryAfterFailureMs?: number;
  /**
   * In `fallback`, the part of every limit each instance enforces on its own (0 < share <= 1;
   * default 1: each instance the whole limit). With N instances, `1 / N` keeps the total at the limit.
   */
  readonly fallbackShare?: number;
}

const FAILURE_MODES: readonly FailureMode[] = ['fail-closed', 'fail-open', 'fallback'];

/** A `TOLLGATE_INVALID_OPTION` naming the owner, the option, its value and what is expected. */
export function invalidOption(
  owner: string,
  option: string,
  value: unknown,
  expected: string,
): TollgateError {
  const shown = typeof value === 'string' ? `'${value}'` : String(value);
  return new TollgateError('TOLLGATE_INVALID_OPTION', `${owner}: \`${option}\` is \`${shown}\`; ${expected}`);
}

/**
 * The failure options with their defaults, or a `TOLLGATE_INVALID_OPTION` naming the first wrong one.
 * @example
 * import { checkFailureOptions } from './failure-options.js';
 * checkFailureOptions({ onFailure: 'fallback' }, 'guardStore').timeoutMs; // 50
 */
export function checkFailureOptions(options: FailureOptions, owner: string): FailurePolicyOptions {
  const timeoutMs = options.timeoutMs ?? 50;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw invalidOption(owner, 'timeoutMs', timeoutMs, 'expected a positive number of milliseconds');
  const onFailure = options.onFailure ?? 'fail-closed';
  if (!FAILURE_MODES.includes(onFailure))
    throw invalidOption(owner, 'onFailure', onFailure, `valid: ${FAILURE_MODES.join(', ')}`);
  const retryAfterFailureMs = options.retryAfterFailureMs ?? 1000;
  if (
    typeof retryAfterFailureMs !== 'number' ||
    !Number.isFinite(retryAfterFailureMs) ||
    retryAfterFailureMs < 0
  )
    throw invalidOption(
      owner,
      'retryAfterFailureMs',
      retryAfterFailureMs,
      'expected a number of milliseconds >= 0',
    );
  const fallbackShare = options.fallbackShare ?? 1;
  if (typeof fallbackShare !== 'number' || !(fallbackShare > 0 && fallbackShare <= 1))
    throw invalidOption(
      owner,
      'fallbackShare',
      fallbackShare,
      'expected a number with 0 < share <= 1 (e.g. 1 / instances)',
    );
  return { timeoutMs, onFailure, retryAfterFailureMs, fallbackShare };
}
