// The Redis store's calls leave at the end of the turn that made them (src/stores/redis-send-queue.ts):
// in the order they were made, with the expiries they mean, and a client that answers in the wrong
// form is named at once rather than taken for Redis being down.
import { describe, expect, it } from 'vitest';
import { createRedisStore } from '../../src/stores/redis-store.js';
import type { RedisClientLike } from '../../src/stores/redis-store-options.js';
import { admitEvent, config } from '../limits/support.js';
import { runRedisTests, sharedRedis } from '../support/redis-server.js';

describe.runIf(runRedisTests)('the Redis store, calls of one turn', () => {
  const redis = sharedRedis();

  it('leaves an identity admitted then reset in one turn reset (the reset does not overtake the admission)', async () => {
    const store = createRedisStore({ client: redis.client, prefix: 'order:', timeoutMs: 2_000 });
    const key = 'user:order';
    // A first call loads the code, so the reset below goes through the script, not a DEL.
    await store.apply(admitEvent({ key: 'user:warm' }), Date.now(), config);
    const admitted = store.apply(admitEvent({ key }), Date.now(), config);
    const reset = store.reset!(key);
    await Promise.all([admitted, reset]);
    const state = await store.read(key);
    expect(state?.inFlight ?? 0).toBe(0);
    expect(state?.coreUsed ?? 0).toBe(0);
  });

  it('keeps a value until its latest window ends: a search window, then an hourly one, on the server clock', async () => {
    const store = createRedisStore({ client: redis.client, prefix: 'ttl:', timeoutMs: 2_000 });
    const key = 'user:ttl';
    const [valueKey] = store.keysOf(key);
    const search = await store.apply(admitEvent({ key, resource: 'search' }), Date.now(), config);
    await store.apply(
      { kind: 'complete', ticket: search.ticket!, status: 200, cpuMs: 0 },
      Date.now(),
      config,
    );
    const searchWindow = config.primary.resources.search.windowMs;
    const afterSearch = await redis.client.pttl(valueKey);
    // Completed, nothing in flight: it lives as long as its search window and its logs, no longer
    // than the longest of them (a minute and a second of CPU log) plus the skew allowance.
    expect(afterSearch).toBeGreaterThan(0);
    expect(afterSearch).toBeLessThanOrEqual(Math.max(searchWindow, 61_000) + 2_000);
    const core = await store.apply(admitEvent({ key }), Date.now(), config);
    await store.apply({ kind: 'complete', ticket: core.ticket!, status: 200, cpuMs: 0 }, Date.now(), config);
    // The hourly window ends later: the expiry grew with it (a kept TTL would leave a minute).
    expect(await redis.client.pttl(valueKey)).toBeGreaterThan(Math.max(searchWindow, 61_000) + 2_000);
    expect(await redis.client.pttl(valueKey)).toBeLessThanOrEqual(config.primary.windowMs + 2_000);
  });

  it('names a client whose callBuffer answers strings, at once, rather than taking it for Redis down', async () => {
    // A wrapper that forwards callBuffer to `call`: strings where the store needs the reply's bytes.
    const wrapper = new Proxy(redis.client, {
      get: (target, property, receiver) =>
        property === 'callBuffer'
          ? (command: string, ...args: unknown[]) => target.call(command, ...(args as string[]))
          : Reflect.get(target, property, receiver),
    }) as unknown as RedisClientLike;
    const store = createRedisStore({ client: wrapper, prefix: 'form:', timeoutMs: 2_000 });
    await expect(store.apply(admitEvent({ key: 'user:form' }), Date.now(), config)).rejects.toMatchObject({
      code: 'TOLLGATE_INVALID_OPTION',
      message: expect.stringMatching(/`callBuffer` answered string, not the reply's bytes/),
    });
  });
});
