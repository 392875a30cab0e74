/** The Redis store's options, checked at once: a wrong one throws here, never per request. */
import { checkFailureOptions, type FailureOptions, invalidOption } from './failure-options.js';
import type { FailureMode } from './redis-failure-policy.js';

/** The ioredis methods the store uses (a `Redis` or a `Cluster` client has them all). */
export interface RedisClientLike {
  /** `ready` when connected; `connecting` is waited for; `reconnecting`, `close` or `end` are down. */
  readonly status: string;
  /**
   * Any command, its reply as bytes: the store's calls (`FCALL`, else `EVALSHA` and `EVAL`), whose
   * answers are binary; a batch call's reply is an array of them, an event's error an `Error` in it
   * (as ioredis answers).
   */
  callBuffer(command: string, ...args: (string | number | Buffer)[]): Promise<unknown>;
  /** Redis 7 functions: the store loads its library once and calls it with `FCALL` (else `EVALSHA`). */
  function?(subcommand: 'LOAD', replace: 'REPLACE', code: string): Promise<unknown>;
  /** A Cluster's masters: the library is loaded on each. */
  nodes?(
    role: 'master',
  ): readonly { function?(subcommand: 'LOAD', replace: 'REPLACE', code: string): Promise<unknown> }[];
  getBuffer(key: string): Promise<Buffer | null>;
  del(...keys: string[]): Promise<unknown>;
  /**
   * The connection's socket (ioredis `Redis`): the store's calls of one event-loop turn leave in
   * one write, as one batch call naming several identities' keys (redis-send-queue.ts,
   * redis-caller.ts). Without one (a Cluster client), each call goes alone.
   */
  readonly stream?: { cork?(): void; uncork?(): void } | undefined;
  /** The server's clock, for admissions' deadlines. */
  time?(): Promise<unknown>;
  once?(event: 'ready', listener: () => void): unknown;
  removeListener?(event: 'ready', listener: () => void): unknown;
}

/** The Redis store's options; the failure options (`timeoutMs`, `onFailure`, ...) are those of failure-options.ts, about Redis. */
export interface RedisStoreOptions extends FailureOptions {
  readonly client: RedisClientLike;
  /**
   * Key prefix, default `tollgate:`. One key per identity, `<prefix>{<identity>}:v2`: its state,
   * its sliding logs longer than one entry and its held tickets in one value.
   */
  readonly prefix?: string;
  /**
   * Test mode only: use the limiter's clock (the `now` it passes) instead of the Redis server's
   * `TIME`. In production every instance must share the server's clock.
   */
  readonly useCallerClock?: boolean;
}

/** Every option of the Redis store, with its default applied. */
export interface RedisStoreSettings {
  readonly client: RedisClientLike;
  readonly prefix: string;
  readonly useCallerClock: boolean;
  readonly timeoutMs: number;
  readonly onFailure: FailureMode;
  readonly retryAfterFailureMs: number;
  readonly fallbackShare: number;
}

const invalid = (option: string, value: unknown, expected: string) =>
  invalidOption('redis store', option, value, expected);

/**
 * The options with their defaults, or a `TOLLGATE_INVALID_OPTION` naming the first wrong one.
 * @example
 * import { Redis } from 'ioredis';
 * import { checkRedisStoreOptions } from './redis-store-options.js';
 * checkRedisStoreOptions({ client: new Redis({ lazyConnect: true }) }).timeoutMs; // 50
 */
export function checkRedisStoreOptions(options: RedisStoreOptions): RedisStoreSettings {
  if (typeof options !== 'object' || options === null)
    throw invalid('options', options, 'expected `{ client }`');
  const { client } = options;
  if (typeof client !== 'object' || client === null || typeof client.callBuffer !== 'function')
    throw invalid(
      'client',
      client,
      'expected an ioredis client (`new Redis(url)` or `new Redis.Cluster(nodes)`)',
    );
  const prefix = options.prefix ?? 'tollgate:';
  if (typeof prefix !== 'string') throw invalid('prefix', prefix, 'expected a string');
  const failure = checkFailureOptions(options, 'redis store');
  return {
    client,
    prefix,
    useCallerClock: options.useCallerClock === true,
    ...failure,
  };
}
