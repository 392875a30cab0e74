/** The Redis store's options, checked at once: a wrong one throws here, never per request. */
import { TollgateError } from '../core/errors.js';
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

export interface RedisStoreOptions {
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
  /** How long Redis may take to answer (a script call, a status read) before the failure mode decides, in ms. Default 50. */
  readonly timeoutMs?: number;
  /**
   * When Redis is slow, down or full: `fail-closed` (default: refuse with 503), `fail-open`
   * (admit unchecked) or `fallback` (decide with a local memory store until Redis answers again).
   * The verdict's `degraded` says which applied.
   */
  readonly onFailure?: FailureMode;
  /**
   * After a failure, the failure mode decides at once, without asking Redis, for this many ms
   * (default 1,000); only until Redis answers again (late answers count) when it had answered a
   * call in time since the last pause.
   */
  readonly retryAfterFailureMs?: number;
  /**
   * In `fallback`, the part of every limit each instance enforces on its own (0 < share <= 1;
   * default 1: each instance the whole limit). With N instances, `1 / N` keeps the total at the limit.
   */
  readonly fallbackShare?: number;
}

const FAILURE_MODES: readonly FailureMode[] = ['fail-closed', 'fail-open', 'fallback'];

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

function invalid(option: string, value: unknown, expected: string): TollgateError {
  const shown = typeof value === 'string' ? `'${value}'` : String(value);
  return new TollgateError(
    'TOLLGATE_INVALID_OPTION',
    `redis store: \`${option}\` is \`${shown}\`; ${expected}`,
  );
}

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
  const timeoutMs = options.timeoutMs ?? 50;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw invalid('timeoutMs', timeoutMs, 'expected a positive number of milliseconds');
  const onFailure = options.onFailure ?? 'fail-closed';
  if (!FAILURE_MODES.includes(onFailure))
    throw invalid('onFailure', onFailure, `valid: ${FAILURE_MODES.join(', ')}`);
  const retryAfterFailureMs = options.retryAfterFailureMs ?? 1000;
  if (
    typeof retryAfterFailureMs !== 'number' ||
    !Number.isFinite(retryAfterFailureMs) ||
    retryAfterFailureMs < 0
  )
    throw invalid('retryAfterFailureMs', retryAfterFailureMs, 'expected a number of milliseconds >= 0');
  const fallbackShare = options.fallbackShare ?? 1;
  if (typeof fallbackShare !== 'number' || !(fallbackShare > 0 && fallbackShare <= 1))
    throw invalid(
      'fallbackShare',
      fallbackShare,
      'expected a number with 0 < share <= 1 (e.g. 1 / instances)',
    );
  return {
    client,
    prefix,
    useCallerClock: options.useCallerClock === true,
    timeoutMs,
    onFailure,
    retryAfterFailureMs,
    fallbackShare,
  };
}
