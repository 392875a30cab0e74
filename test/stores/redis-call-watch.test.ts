// The Redis store's timeouts: one timer for all the calls in flight keeps each call's rules (never
// answered past its timeout, a call sent late timed from when it went out, late answers handed on).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TollgateError } from '../../src/core/errors.js';
import { createCallWatch } from '../../src/stores/redis-call-watch.js';
import { deferred } from '../support/deferred.js';

const TIMEOUT_MS = 50;
/** The fake clock runs an immediate 1 ms after the timer that set it: a check comes that much later. */
const TURN = 1;

/** What a watched call has answered so far ('pending' until it does). */
function outcome<T>(answer: Promise<T>) {
  const seen: { value: T | 'pending'; error?: unknown } = { value: 'pending' };
  answer.then(
    (value) => {
      seen.value = value;
    },
    (error: unknown) => {
      seen.error = error;
    },
  );
  return seen;
}

describe('createCallWatch', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers each call in time with its value, many calls sharing one timer', async () => {
    const failures = vi.fn();
    const calls = createCallWatch(TIMEOUT_MS, 1000, failures);
    const sent = Array.from({ length: 100 }, () => deferred<number>());
    const answers = sent.map((call) => outcome(calls.watch(call.promise)));
    expect(vi.getTimerCount()).toBe(1);
    for (const [i, call] of sent.entries()) call.resolve(i);
    await vi.advanceTimersByTimeAsync(0);
    expect(answers.map((a) => a.value)).toEqual(sent.map((_, i) => i));
    expect(failures).not.toHaveBeenCalled();
  });

  it('answers null at the timeout, not before, and hands a late answer on', async () => {
    const failures = vi.fn();
    const late = vi.fn();
    const calls = createCallWatch(TIMEOUT_MS, 1000, failures);
    const slow = deferred<string>();
    const answer = outcome(calls.watch(slow.promise, late));
    await vi.advanceTimersByTimeAsync(TIMEOUT_MS - 1);
    expect(answer.value).toBe('pending');
    await vi.advanceTimersByTimeAsync(1 + TURN);
    expect(answer.value).toBe(null);
    expect(failures).toHaveBeenCalledTimes(1);
    slow.resolve('PONG');
    await vi.advanceTimersByTimeAsync(0);
    expect(late).toHaveBeenCalledWith('PONG');
  });

  it('times each call from when it went out, not from when it was watched', async () => {
    const calls = createCallWatch(TIMEOUT_MS, 1000, () => {});
    const early = outcome(calls.watch(new Promise<never>(() => {})));
    await vi.advanceTimersByTimeAsync(20);
    const later = outcome(calls.watch(new Promise<never>(() => {})));
    // Its work waited 30 ms (a connection being made) before the call went out.
    const waited = outcome(
      calls.watchStart(async (call) => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        call.sending();
        return new Promise<never>(() => {});
      }),
    );
    // At 50 + TURN the first is given up; the second (watched at 20) and the one sent at 50 wait.
    await vi.advanceTimersByTimeAsync(30 + TURN);
    expect([early.value, later.value, waited.value]).toEqual([null, 'pending', 'pending']);
    await vi.advanceTimersByTimeAsync(20);
    expect([later.value, waited.value]).toEqual([null, 'pending']);
    // Sent at 50: its 50 ms end at 100, not at 70.
    await vi.advanceTimersByTimeAsync(27);
    expect(waited.value).toBe('pending');
    await vi.advanceTimersByTimeAsync(3 + TURN);
    expect(waited.value).toBe(null);
  });

  it("throws a fault of ours, answers null for Redis's", async () => {
    const failures = vi.fn();
    const calls = createCallWatch(TIMEOUT_MS, 1000, failures);
    const ours = outcome(calls.watch(Promise.reject(new TollgateError('TOLLGATE_STORE_UNAVAILABLE', 'x'))));
    const redis = outcome(calls.watch(Promise.reject(new Error('OOM command not allowed'))));
    await vi.advanceTimersByTimeAsync(0);
    expect((ours.error as TollgateError).code).toBe('TOLLGATE_STORE_UNAVAILABLE');
    expect(redis.value).toBe(null);
    expect(failures).toHaveBeenCalledTimes(1);
  });

  it('tells when every call watched settled, timed-out ones included', async () => {
    const calls = createCallWatch(TIMEOUT_MS, 1000, () => {});
    const slow = deferred<number>();
    void calls.watch(slow.promise);
    const idle = outcome(calls.idle().then(() => 'idle'));
    await vi.advanceTimersByTimeAsync(TIMEOUT_MS + TURN);
    expect(idle.value).toBe('pending');
    slow.resolve(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(idle.value).toBe('idle');
  });

  it('settles a call whose client throws as it is made, so idle() resolves (regression: it hung)', async () => {
    const failures = vi.fn();
    const calls = createCallWatch(TIMEOUT_MS, 1000, failures);
    const answer = outcome(
      calls.watchStart(() => {
        throw new Error('Connection is closed.');
      }),
    );
    const idle = outcome(calls.idle().then(() => 'idle'));
    await vi.advanceTimersByTimeAsync(0);
    // A client that cannot take the call fails like Redis failing: null, the failure told once.
    expect(answer.value).toBe(null);
    expect(failures).toHaveBeenCalledTimes(1);
    expect(idle.value).toBe('idle');
  });

  it('tells `replied` of every answer Redis gave, in time or late, and of nothing else', async () => {
    const failures = vi.fn();
    const replied = vi.fn();
    const calls = createCallWatch(TIMEOUT_MS, 1000, failures, replied);
    const fast = deferred<string>();
    const slow = deferred<string>();
    void calls.watch(fast.promise);
    void calls.watch(slow.promise, () => {});
    void calls.watch(Promise.reject(new Error('OOM command not allowed')));
    void calls.watch(Promise.resolve(null));
    fast.resolve('PONG');
    await vi.advanceTimersByTimeAsync(0);
    // The error is a failure, and a call that sent nothing (null) is no answer of Redis's.
    expect([replied.mock.calls.length, failures.mock.calls.length]).toEqual([1, 1]);
    await vi.advanceTimersByTimeAsync(TIMEOUT_MS + TURN);
    expect(failures).toHaveBeenCalledTimes(2);
    slow.resolve('PONG');
    await vi.advanceTimersByTimeAsync(0);
    expect(replied).toHaveBeenCalledTimes(2);
  });
});
