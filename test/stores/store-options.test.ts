// The stores check their options when made: a missing client or a mistyped number is never found late.
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/index.js';
import { createRedisStore, type RedisStoreOptions } from '../../src/stores/redis-store.js';
import { thrown } from '../support/thrown.js';

// A real ioredis client that never connects: the options are checked before any command.
const client = new Redis({ lazyConnect: true });
afterAll(() => client.disconnect());

describe('createMemoryStore options', () => {
  it.each([
    [{ maxIdentities: 0 }, 'createMemoryStore: `maxIdentities` must be an integer >= 1, got `0`'],
    [{ maxIdentities: '10' }, 'createMemoryStore: `maxIdentities` must be an integer >= 1, got `"10"`'],
    [
      { maxIdentites: 10 },
      'createMemoryStore: unknown option `maxIdentites` (did you mean `maxIdentities`?); valid: maxIdentities',
    ],
    [null, 'createMemoryStore: options must be an object, got `null`'],
  ])('refuses %o at once', (options, message) => {
    const error = thrown(() => createMemoryStore(options as never));
    expect(error.code).toBe('TOLLGATE_INVALID_OPTION');
    expect(error.message).toBe(message);
    expect(error.details).toEqual([message]);
  });
});

describe('createRedisStore options', () => {
  const IOREDIS =
    'an ioredis client (new Redis(url) or new Redis.Cluster(nodes)) (an object with callBuffer(), getBuffer(), del())';
  it.each([
    [{}, `createRedisStore: \`client\` is required: give ${IOREDIS}`],
    [{ client: null }, `createRedisStore: \`client\` must be ${IOREDIS}, got \`null\``],
    [
      { client, retryAfterFailureMs: 'x' },
      'createRedisStore: `retryAfterFailureMs` must be a number >= 0, got `"x"`',
    ],
    [{ client, timeoutMs: 0 }, 'createRedisStore: `timeoutMs` must be a number > 0, got `0`'],
    [
      { client, onFailure: 'fail-opn' },
      'createRedisStore: `onFailure` must be one of `fail-closed`, `fail-open`, `fallback`, got `"fail-opn"`',
    ],
    [
      { client, fallbackShare: 1.5 },
      'createRedisStore: `fallbackShare` must be a number > 0 and <= 1, got `1.5`',
    ],
    [{ client, prefix: '' }, 'createRedisStore: `prefix` must be a non-empty string, got `""`'],
    [
      { client, timeout: 50 },
      'createRedisStore: unknown option `timeout` (did you mean `timeoutMs`?); valid: client, prefix, useCallerClock, timeoutMs, onFailure, retryAfterFailureMs, fallbackShare',
    ],
  ])('refuses %o at once', (options, message) => {
    const error = thrown(() => createRedisStore(options as RedisStoreOptions));
    expect(error.code).toBe('TOLLGATE_INVALID_OPTION');
    expect(error.message).toBe(message);
    expect(error.details).toEqual([message]);
  });

  it('accepts a real client with every documented option', () => {
    expect(() =>
      createRedisStore({
        client,
        prefix: 't:',
        timeoutMs: 20,
        onFailure: 'fallback',
        retryAfterFailureMs: 0,
        fallbackShare: 0.5,
      } as RedisStoreOptions),
    ).not.toThrow();
  });
});
