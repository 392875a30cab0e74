/** tollgate/redis: the Redis (or Valkey) store, limit state shared by many server instances, one script call per event. */
import { createHash } from 'node:crypto';
import { checkOptions } from '../core/check-options.js';
import { TollgateError } from '../core/errors.js';
import {
  AdmissionTicket,
  type AsyncLimitsStore,
  allowedVerdict,
  deniedVerdict,
  type IdentityState,
  type LimitEvent,
  type LimitsConfig,
  type Verdict,
} from '../limits/index.js';
import { createMemoryStore } from './memory-store.js';
import { limitsScript, SCRIPT_RESOURCES, SCRIPT_RULES } from './redis-script.js';
import { REDIS_STORE_OPTIONS } from './store-options-spec.js';

/** The few ioredis methods the store uses (a `Redis` or a `Cluster` client has them all). */
export interface RedisClientLike {
  /** `ready` when connected; `reconnecting`, `close` or `end`, and no command is queued behind it. */
  readonly status: string;
  evalsha(sha: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
  eval(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
  getBuffer(key: string): Promise<Buffer | null>;
}

export interface RedisStoreOptions {
  readonly client: RedisClientLike;
  /** Key prefix, default `tollgate:`. Keys: `<prefix>{<identity>}:s` (state) and `:t` (held tickets). */
  readonly prefix?: string;
  /**
   * Test mode only: use the limiter's clock (the `now` it passes) instead of the Redis server's
   * `TIME`. In production every instance must share the server's clock.
   */
  readonly useCallerClock?: boolean;
  /** How long one script call may take before the failure mode decides, in ms. Default 50. */
  readonly timeoutMs?: number;
  /**
   * When Redis does not answer in time: `fail-closed` (default: refuse with 503), `fail-open`
   * (admit unchecked) or `fallback` (decide with a local memory store until Redis answers again).
   * The verdict's `degraded` says which applied.
   */
  readonly onFailure?: 'fail-closed' | 'fail-open' | 'fallback';
  /** After a failure, Redis is tried again after this many ms (default 1,000); meanwhile the failure mode decides at once. */
  readonly retryAfterFailureMs?: number;
}

const FAILURE_MODES = ['fail-closed', 'fail-open', 'fallback'] as const;
/** Client states of a connection known to be down (still connecting the first time is not). */
const BROKEN = new Set(['reconnecting', 'close', 'end']);

/** A Redis store; `config` is fixed by the first call (one script per config). */
export interface RedisStore extends AsyncLimitsStore {
  /** Keys of one identity, as the script uses them. */
  keysOf(identityKey: string): readonly [state: string, tickets: string];
}

const FIELDS = [
  'at',
  'inFlight',
  'restPoints',
  'graphqlPoints',
  'cpu',
  'graphqlCpu',
  'contentMinute',
  'contentHour',
  'coreReset',
  'coreUsed',
  'searchReset',
  'searchUsed',
  'graphqlReset',
  'graphqlUsed',
  'lfsReset',
  'lfsUsed',
] as const;

/** The refusal when the store cannot decide and the mode is `fail-closed`: 503, said plainly. */
function unavailableVerdict(resource: Verdict['resource'], limit: number, config: LimitsConfig): Verdict {
  const body = {
    message: 'The rate limit store is unavailable; try again shortly.',
    documentation_url: config.answers.documentationUrl,
    status: '503',
  };
  return {
    allowed: false,
    reason: 'store_unavailable',
    rule: null,
    resource,
    limit,
    remaining: 0,
    used: 0,
    reset: 0,
    retryAt: null,
    retryAfter: 1,
    status: 503,
    headers: { [config.answers.headers.retryAfter]: '1', 'content-type': config.answers.contentType },
    body,
    ticket: null,
    degraded: 'fail-closed',
  };
}

/** MessagePack number formats the script writes (ints of any width, float64): size and reader. */
const NUMBER_FORMATS = new Map<number, [size: number, read: (buffer: Buffer, at: number) => number]>([
  [0xcc, [2, (b, at) => b.readUInt8(at)]],
  [0xcd, [3, (b, at) => b.readUInt16BE(at)]],
  [0xce, [5, (b, at) => b.readUInt32BE(at)]],
  [0xcf, [9, (b, at) => Number(b.readBigUInt64BE(at))]],
  [0xd0, [2, (b, at) => b.readInt8(at)]],
  [0xd1, [3, (b, at) => b.readInt16BE(at)]],
  [0xd2, [5, (b, at) => b.readInt32BE(at)]],
  [0xd3, [9, (b, at) => Number(b.readBigInt64BE(at))]],
  [0xcb, [9, (b, at) => b.readDoubleBE(at)]],
]);

/** The numbers of the MessagePack sequence the script stores as an identity's state. */
function unpackNumbers(buffer: Buffer): number[] {
  const numbers: number[] = [];
  for (let at = 0; at < buffer.length; ) {
    const byte = buffer[at]!;
    // Fixints: the byte is the value (0 to 127, -32 to -1).
    if (byte <= 0x7f || byte >= 0xe0) {
      numbers.push(byte <= 0x7f ? byte : byte - 0x100);
      at += 1;
      continue;
    }
    const format = NUMBER_FORMATS.get(byte);
    if (format === undefined)
      throw new TollgateError(
        'TOLLGATE_STORE_UNAVAILABLE',
        `redis store: unexpected state byte 0x${byte.toString(16)}`,
      );
    numbers.push(format[1](buffer, at + 1));
    at += format[0];
  }
  return numbers;
}

/**
 * A store over an ioredis client (`new Redis(url)` or `new Redis.Cluster(nodes)`) that the caller
 * owns. Each event is ONE call of one Lua script, by SHA (sent whole once on NOSCRIPT), which
 * reads the identity's state, decides every bucket of the request as `stepInto` does, and writes
 * it back: atomically, whatever the number of instances, in either window mode.
 * @example
 * import { Redis } from 'ioredis';
 * import { createLimiter } from 'tollgate';
 * import { createRedisStore } from './redis-store.js';
 * const limiter = createLimiter({ store: createRedisStore({ client: new Redis('redis://127.0.0.1:6379') }) });
 */
export function createRedisStore(options: RedisStoreOptions): RedisStore {
  checkOptions(REDIS_STORE_OPTIONS, options);
  const { client } = options;
  const prefix = options.prefix ?? 'tollgate:';
  const callerClock = options.useCallerClock === true;
  const timeoutMs = options.timeoutMs ?? 50;
  const onFailure = options.onFailure ?? 'fail-closed';
  const pause = options.retryAfterFailureMs ?? 1000;
  if (!(FAILURE_MODES as readonly string[]).includes(onFailure))
    throw new TollgateError(
      'TOLLGATE_INVALID_OPTION',
      `redis store: \`onFailure\` is \`${String(onFailure)}\`; valid: ${FAILURE_MODES.join(', ')}`,
    );
  if (!(timeoutMs > 0))
    throw new TollgateError(
      'TOLLGATE_INVALID_OPTION',
      `redis store: \`timeoutMs\` must be a positive number, got \`${timeoutMs}\``,
    );
  const local = onFailure === 'fallback' ? createMemoryStore() : null;
  /** Tickets the local store admitted: they are settled there, whatever Redis does meanwhile. */
  const localTickets = new WeakSet<object>();
  let downUntil = 0;
  let script: { config: LimitsConfig; text: string; sha: string } | undefined;

  const scriptFor = (config: LimitsConfig) => {
    if (script?.config === config) return script;
    const text = limitsScript(config);
    script = { config, text, sha: createHash('sha1').update(text).digest('hex') };
    return script;
  };
  const keysOf = (key: string) => [`${prefix}{${key}}:s`, `${prefix}{${key}}:t`] as const;

  async function call(config: LimitsConfig, key: string, args: (string | number)[]): Promise<number[]> {
    const { text, sha } = scriptFor(config);
    const keys = keysOf(key);
    try {
      return (await client.evalsha(sha, 2, ...keys, ...args)) as number[];
    } catch (error) {
      if (!String((error as Error)?.message).startsWith('NOSCRIPT')) throw error;
      // A restarted or new server: send the script whole; it is cached by SHA from then on.
      return (await client.eval(text, 2, ...keys, ...args)) as number[];
    }
  }

  /** Completions Redis could not take: replayed once it answers again (a repeat settles nothing). */
  const unsettled: (string | number)[][] = [];
  const unsettledKeys: string[] = [];

  /**
   * The script's answer, or null when Redis is down, not connected, or slower than `timeoutMs`. A
   * command that timed out may still run in Redis: an admission that does is released at once,
   * so its slot does not stay held for the whole lease.
   */
  async function run(config: LimitsConfig, key: string, args: (string | number)[]): Promise<number[] | null> {
    // A command queued behind a broken connection would run later, after its answer was given.
    if (Date.now() < downUntil || BROKEN.has(client.status)) return null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let late = false;
    const pending = call(config, key, args);
    pending.then(
      (answer) => {
        if (!late) return;
        // A late admission: release its ticket (resource, graphql, id and counted reset as admitted).
        if (args[0] === 'a' && answer[0] === 1)
          void call(config, key, ['r', args[1]!, args[2]!, args[6]!, 0, 0, answer[4]!, answer[3]!]).catch(
            () => {},
          );
      },
      () => {},
    );
    try {
      const answer = await Promise.race([
        pending,
        new Promise<null>((resolve) => {
          // One turn more: a reply already read off the socket wins over the timer.
          timer = setTimeout(() => setImmediate(() => resolve(null)), timeoutMs);
        }),
      ]);
      if (answer === null) {
        late = true;
        downUntil = Date.now() + pause;
      } else replayUnsettled(config);
      return answer;
    } catch (error) {
      if (error instanceof TollgateError) throw error;
      downUntil = Date.now() + pause;
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  function replayUnsettled(config: LimitsConfig): void {
    while (unsettled.length > 0) {
      const args = unsettled.shift()!;
      const key = unsettledKeys.shift()!;
      void call(config, key, args).catch(() => {});
    }
  }

  function degraded(event: LimitEvent, now: number, config: LimitsConfig): Verdict {
    if (local !== null) {
      const verdict = local.apply(event, now, config);
      if (verdict.ticket !== null) localTickets.add(verdict.ticket);
      return Object.assign(verdict, { degraded: 'fallback' as const });
    }
    const resource = event.kind === 'admit' ? event.resource : event.ticket.resource;
    const limit = event.kind === 'admit' ? event.limit : event.ticket.limit;
    if (event.kind !== 'admit' || onFailure === 'fail-open') {
      const ticket =
        event.kind === 'admit'
          ? new AdmissionTicket(event.key, resource, event.graphql, limit, 0, -1, 0)
          : null;
      return Object.assign(allowedVerdict(resource, limit, 0, 0, ticket, config), {
        degraded: 'fail-open' as const,
      });
    }
    return unavailableVerdict(resource, limit, config);
  }

  return {
    sync: false,
    keysOf,
    async apply(event: LimitEvent, now: number, config: LimitsConfig): Promise<Verdict> {
      const clock = callerClock ? String(now) : '';
      if (event.kind !== 'admit' && local !== null && localTickets.has(event.ticket))
        return Object.assign(local.apply(event, now, config), { degraded: 'fallback' as const });
      if (event.kind === 'admit') {
        const resource = SCRIPT_RESOURCES.indexOf(event.resource) + 1;
        const answer = await run(config, event.key, [
          'a',
          clock,
          resource,
          event.limit,
          event.cost,
          event.content ? 1 : 0,
          event.graphql ? 1 : 0,
          event.countsPrimary ? 1 : 0,
        ]);
        if (answer === null) return degraded(event, now, config);
        if (answer[0] === 0) {
          const [, rule, used, reset, retryAt, reading] = answer as [
            number,
            number,
            number,
            number,
            number,
            number,
          ];
          return deniedVerdict(
            SCRIPT_RULES[rule - 1]!,
            event.key,
            event.resource,
            event.limit,
            used,
            reset,
            retryAt,
            reading,
            config,
          );
        }
        const [, used, reset, countedReset, id] = answer as [number, number, number, number, number];
        const ticket = new AdmissionTicket(
          event.key,
          event.resource,
          event.graphql,
          event.limit,
          countedReset,
          -1,
          id,
        );
        return allowedVerdict(event.resource, event.limit, used, reset, ticket, config);
      }
      const { ticket } = event;
      const args = [
        event.kind === 'complete' ? 'c' : 'r',
        clock,
        SCRIPT_RESOURCES.indexOf(ticket.resource) + 1,
        ticket.graphql ? 1 : 0,
        event.kind === 'complete' ? event.status : 0,
        event.cpuMs,
        ticket.id,
        ticket.countedReset,
      ];
      const answer = await run(config, ticket.key, args);
      if (answer === null) {
        // Settled later, when Redis answers again; a bounded list, oldest dropped first.
        if (unsettled.length >= 10_000) {
          unsettled.shift();
          unsettledKeys.shift();
        }
        unsettled.push(args);
        unsettledKeys.push(ticket.key);
        return degraded(event, now, config);
      }
      return allowedVerdict(ticket.resource, ticket.limit, answer[1]!, answer[2]!, null, config);
    },
    async read(key: string): Promise<IdentityState | undefined> {
      const [stateKey] = keysOf(key);
      const raw = await client.getBuffer(stateKey);
      if (raw === null) return undefined;
      const numbers = unpackNumbers(raw);
      return Object.fromEntries(
        FIELDS.map((field, i) => [field, numbers[i] ?? 0]),
      ) as unknown as IdentityState;
    },
  };
}
