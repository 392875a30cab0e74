// The IETF fields of admitted requests over a real Redis: the same hand-computed figures as over
// the memory store (see test/gate/nearest-rule.case.ts). The caller's clock, so they are exact.
import { describe } from 'vitest';
import { createRedisStore } from '../../src/stores/redis-store.js';
import { nearestRuleContract } from '../gate/nearest-rule.case.js';
import { runRedisTests, sharedRedis } from '../support/redis-server.js';

describe.runIf(runRedisTests)('standardHeaders over the Redis store: the rule nearest exhaustion', () => {
  const redis = sharedRedis();
  let stores = 0;
  nearestRuleContract(() =>
    createRedisStore({
      client: redis.client,
      prefix: `nearest${stores++}-${Date.now()}:`,
      useCallerClock: true,
      timeoutMs: 2_000,
    }),
  );
});
