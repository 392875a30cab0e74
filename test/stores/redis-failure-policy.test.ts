// The Redis store's pause after a failure: how long the failure mode answers without asking Redis.
// It ends at Redis's next answer when Redis answered in time since the last pause (a stall of a
// moment); else it holds its whole length (a Redis that stays slower than the timeout is left
// alone); an event's own error in a batch fails that event alone.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventErrors } from '../../src/stores/redis-call-watch.js';
import { createFailurePolicy } from '../../src/stores/redis-failure-policy.js';
import { deferred } from '../support/deferred.js';

const TIMEOUT_MS = 50;
const RETRY_MS = 1_000;
/** The watch's check runs an immediate after its timer: a little past the timeout. */
const PAST_TIMEOUT = TIMEOUT_MS + 2;

const newPolicy = () =>
  createFailurePolicy(
    { status: 'ready' },
    { timeoutMs: TIMEOUT_MS, onFailure: 'fail-closed', retryAfterFailureMs: RETRY_MS, fallbackShare: 1 },
  );

/** A call that times out, then answers late when `answer` is called. */
async function timedOut(policy: ReturnType<typeof newPolicy>) {
  const reply = deferred<string>();
  const answer = policy.guard(() => reply.promise);
  await vi.advanceTimersByTimeAsync(PAST_TIMEOUT);
  expect(await answer).toBe(null);
  return async () => {
    reply.resolve('late');
    await vi.advanceTimersByTimeAsync(0);
  };
}

describe('the Redis failure policy: the pause after a failure', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setImmediate', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ends at the next answer while Redis answers in time between pauses, and holds its whole length when it did not', async () => {
    const policy = newPolicy();
    expect(policy.open()).toBe(true);
    const firstLate = await timedOut(policy);
    expect(policy.open()).toBe(false);
    await firstLate();
    expect(policy.open()).toBe(true);

    // Slow again, with no answer in time since that pause: this one holds though Redis answers.
    const secondLate = await timedOut(policy);
    await secondLate();
    expect(policy.open()).toBe(false);
    await vi.advanceTimersByTimeAsync(RETRY_MS - 10);
    expect(policy.open()).toBe(false);
    await vi.advanceTimersByTimeAsync(20);
    expect(policy.open()).toBe(true);

    // Answered in time again: a stall of a moment again costs a moment.
    expect(await policy.guard(async () => 'in time')).toBe('in time');
    const thirdLate = await timedOut(policy);
    expect(policy.open()).toBe(false);
    await thirdLate();
    expect(policy.open()).toBe(true);
  });

  it('holds its whole length while Redis says nothing', async () => {
    const policy = newPolicy();
    await timedOut(policy);
    await vi.advanceTimersByTimeAsync(RETRY_MS - 10);
    expect(policy.open()).toBe(false);
    await vi.advanceTimersByTimeAsync(20);
    expect(policy.open()).toBe(true);
  });

  it("fails an event alone for its own error in a batch, wherever it sits; a call's error pauses", async () => {
    for (const order of [
      ['event', 'ok'],
      ['ok', 'event'],
    ] as const) {
      const policy = newPolicy();
      const answers = order.map((kind) => {
        if (kind === 'ok') return policy.watch(Promise.resolve('answer'));
        const error = new Error('WRONGTYPE Operation against a key holding the wrong kind of value');
        eventErrors.add(error);
        return policy.watch(Promise.reject(error));
      });
      expect(await Promise.all(answers)).toEqual(order.map((kind) => (kind === 'ok' ? 'answer' : null)));
      expect(policy.open()).toBe(true);
    }
    const policy = newPolicy();
    expect(await policy.watch(Promise.reject(new Error('OOM command not allowed')))).toBe(null);
    expect(policy.open()).toBe(false);
  });
});
