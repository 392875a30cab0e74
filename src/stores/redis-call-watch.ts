/** The Redis store's timeouts: every call in flight watched by one timer, not a timer each. */
// Hot path: every admission and completion passes through `watch`; bench/redis.mjs guards its cost.
import { TollgateError } from '../core/errors.js';

/**
 * A call being waited for, as its work sees it: whether its answer is still awaited, and when it went out.
 * @example
 * import { createCallWatch } from './redis-call-watch.js';
 * const calls = createCallWatch(500, 10_000, () => {});
 * await calls.watchStart(async (call) => (call.waiting ? 'sent' : null)); // 'sent'
 */
export interface CallInFlight {
  /** False once the call was answered for (timed out): send nothing more. */
  readonly waiting: boolean;
  /** Says that the call goes out now: it gets the full timeout from here. */
  sending(): void;
}

/**
 * Watches calls to Redis against the store's timeout.
 * @example
 * import { createCallWatch } from './redis-call-watch.js';
 * const calls = createCallWatch(500, 10_000, () => {});
 * await calls.watch(Promise.resolve(7)); // 7
 */
export interface CallWatch {
  /**
   * The answer of `pending`, a call sent just now; or null when it fails (a TollgateError, a fault
   * of ours, is thrown instead) or is not answered within the timeout. An answer that arrives
   * after null was given goes to `late`.
   */
  watch<T>(pending: Promise<T | null>, late?: (value: T) => void): Promise<T | null>;
  /** As `watch`, for a call `start` sends when it can (told by `waiting` when not to any more). */
  watchStart<T>(
    start: (call: CallInFlight) => Promise<T | null>,
    late?: (value: T) => void,
  ): Promise<T | null>;
  /** Resolves once every call watched so far settled (answered late ones included). */
  idle(): Promise<void>;
}

/**
 * Errors that are one event's own, not Redis failing: raised while the store's code ran on that
 * event's key (alone or in a batch call) or by a status read of a key holding another type. The
 * caller and the reader mark them; the watch takes each as an answer and fails that event alone.
 */
export const eventErrors = new WeakSet<object>();

/** One watched call: its clock and how to answer it. */
class WatchedCall implements CallInFlight {
  waiting = true;
  /** When it went out (-Infinity until its work says so). */
  sentAt = Number.NEGATIVE_INFINITY;
  /** When it is checked next. */
  expected: number;

  constructor(
    readonly started: number,
    timeoutMs: number,
    readonly resolve: (value: unknown) => void,
    readonly reject: (error: unknown) => void,
    readonly late: ((value: never) => void) | undefined,
  ) {
    this.expected = started + timeoutMs;
  }

  sending(): void {
    this.sentAt = performance.now();
  }
}

/**
 * A watch over calls of `timeoutMs` each. A timeout counts only time the event loop was free to
 * read the reply: a check that ran late because the loop was busy waits once more (up to
 * `maxWaitMs` in all), and a call that went out late (its work waited) gets the full timeout from
 * then; a check runs one loop turn after its timer, so a reply already read off the socket wins.
 * `failed` is told of each call answered null for Redis's failure, `replied` of each answer Redis
 * gave and whether it came in time (late ones are told too; an event's own error in a batch is
 * an answer, and fails that event alone). These are the rules of one timer per call, kept
 * with one timer for all: set for the earliest check due; a call that settles only marks itself
 * answered (the next check drops it); with no call waiting the timer holds no process open.
 * @example
 * import { createCallWatch } from './redis-call-watch.js';
 * const calls = createCallWatch(50, 1000, () => {});
 * await calls.watch(Promise.resolve('PONG')); // 'PONG'
 */
export function createCallWatch(
  timeoutMs: number,
  maxWaitMs: number,
  failed: () => void,
  replied: (inTime: boolean) => void = () => {},
): CallWatch {
  /** Calls that may still be waiting, in the order they started (answered ones go at the next check). */
  const watched: WatchedCall[] = [];
  /** Calls still waiting: with none, the timer is unref'd. */
  let waiting = 0;
  /** Calls whose promise has not settled yet (a timed-out call still runs), and who waits for none. */
  let unsettled = 0;
  let idleWaiters: (() => void)[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** When the timer runs the next check (performance.now() time); Infinity when it is not set. */
  let timerAt = Number.POSITIVE_INFINITY;

  const checkNextTurn = () => setImmediate(check);

  function register(call: WatchedCall): void {
    unsettled++;
    watched.push(call);
    if (waiting++ === 0) timer?.ref();
    if (call.expected < timerAt) {
      if (timer !== undefined) clearTimeout(timer);
      timerAt = call.expected;
      timer = setTimeout(checkNextTurn, timeoutMs);
    }
  }

  function answered(call: WatchedCall): void {
    call.waiting = false;
    if (--waiting === 0) {
      watched.length = 0;
      timer?.unref();
    }
  }

  /** Gives up on the calls past their time (or grants them more), then sets the timer for the earliest left. */
  function check(): void {
    timer = undefined;
    timerAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    let kept = 0;
    let earliest = Number.POSITIVE_INFINITY;
    for (const call of watched) {
      if (!call.waiting) continue;
      if (call.expected <= now) {
        // The loop, not Redis, was slow (the check ran late, or the call went out late): the
        // reply had no fair chance to arrive and be read yet.
        const wait = Math.max(
          now - call.expected > timeoutMs / 2 ? timeoutMs : 0,
          call.sentAt + timeoutMs - now,
        );
        if (wait > 0 && now - call.started < maxWaitMs) call.expected = now + wait;
        else {
          answered(call);
          failed();
          call.resolve(null);
          continue;
        }
      }
      watched[kept++] = call;
      if (call.expected < earliest) earliest = call.expected;
    }
    watched.length = kept;
    if (kept > 0) {
      timerAt = earliest;
      timer = setTimeout(checkNextTurn, Math.max(0, earliest - now));
    }
  }

  // A call made now, answered through the promise `watch` or `watchStart` returns.
  function newCall<T>(
    resolve: (value: T | null) => void,
    reject: (error: unknown) => void,
    late: ((value: T) => void) | undefined,
  ): WatchedCall {
    return new WatchedCall(performance.now(), timeoutMs, resolve as (value: unknown) => void, reject, late);
  }

  function settled(): void {
    if (--unsettled > 0 || idleWaiters.length === 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  function follow(call: WatchedCall, pending: Promise<unknown>): void {
    pending.then(
      (value) => {
        settled();
        if (value !== null) replied(call.waiting);
        if (call.waiting) {
          answered(call);
          call.resolve(value);
        } else if (value !== null) call.late?.(value as never);
      },
      (error: unknown) => {
        settled();
        // One event of a batch failed in its own run: Redis ran the batch, so it answered. Told
        // as an answer whatever the event's place in the batch, so the events after it cannot undo it.
        const eventOnly = eventErrors.has(error as object);
        if (eventOnly) replied(call.waiting);
        if (!call.waiting) return;
        answered(call);
        // A fault of ours (an unreadable state) is not Redis failing: it is thrown, not masked.
        if (error instanceof TollgateError) return call.reject(error);
        // Else Redis refused or failed the call (OOM when full, connection lost, ...).
        if (!eventOnly) failed();
        call.resolve(null);
      },
    );
  }

  return {
    watch<T>(pending: Promise<T | null>, late?: (value: T) => void) {
      return new Promise<T | null>((resolve, reject) => {
        const call = newCall(resolve, reject, late);
        call.sentAt = call.started;
        register(call);
        follow(call, pending);
      });
    },
    watchStart<T>(start: (call: CallInFlight) => Promise<T | null>, late?: (value: T) => void) {
      return new Promise<T | null>((resolve, reject) => {
        const call = newCall(resolve, reject, late);
        register(call);
        // A client that throws as the call is made (closed, refusing an argument) fails like one
        // that rejects: the call is followed either way, so it settles and `idle` resolves.
        let pending: Promise<T | null>;
        try {
          pending = start(call);
        } catch (error) {
          pending = Promise.reject(error);
        }
        follow(call, pending);
      });
    },
    idle() {
      return unsettled === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
}
