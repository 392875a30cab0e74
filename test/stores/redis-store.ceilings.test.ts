// The two first-refusal figures of seed 000's secondary limits through the Redis store (a real
// redis-server, the limiter's injected clock): the same hand calculation as
// test/limiter/seed-ceilings.test.ts, the same exact figures.
import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../src/index.js';
import { createRedisStore } from '../../src/stores/redis-store.js';
import { T0 } from '../limits/support.js';
import { runRedisTests, sharedRedis } from '../support/redis-server.js';

describe.runIf(runRedisTests)('seed 000 secondary limits through the Redis store, by hand', () => {
  const redis = sharedRedis();

  /** Sends `request` every `gapMs` until the first refusal; the admitted count and that refusal. */
  async function untilRefused(user: string, request: { method: string; content?: boolean }, gapMs: number) {
    let now = T0;
    const store = createRedisStore({
      client: redis.client,
      prefix: `ceilings:`,
      useCallerClock: true,
      timeoutMs: 5_000,
    });
    const limiter = createLimiter({ clock: () => now, store });
    const identity = limiter.identify({ kind: 'classic', user });
    for (let k = 0; ; k++) {
      now = T0 + k * gapMs;
      const verdict = await limiter.admit({ identity, ...request });
      if (!verdict.allowed)
        return { admitted: k, at: k * gapMs, rule: verdict.rule, retryAfter: verdict.headers['retry-after'] };
      await limiter.complete(verdict.ticket!, { status: 201 });
    }
  }

  it('content at 2 per second: the 81st, at 40 s, is the first refused (content per minute)', async () => {
    // 80 issue creations at 0 .. 39.5 s fill (t - 60 s, t]; the one at 40 s waits for 60 s.
    expect(await untilRefused('content', { method: 'POST', content: true }, 500)).toEqual({
      admitted: 80,
      at: 40_000,
      rule: 'content_per_minute',
      retryAfter: '20',
    });
  });

  it('points at 20 GETs a second: the 901st, at 45 s, is the first refused (REST points)', async () => {
    // 900 GETs of 1 point at 0 .. 44.95 s fill (t - 60 s, t]; the one at 45 s waits for 60 s.
    expect(await untilRefused('points', { method: 'GET' }, 50)).toEqual({
      admitted: 900,
      at: 45_000,
      rule: 'rest_points',
      retryAfter: '15',
    });
  });
});
