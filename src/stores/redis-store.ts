/** tollgate/redis: the Redis (or Valkey) store, limit state shared by many server instances, one run of its script per event. */
import { checkOptions } from '../core/check-options.js';
import { TollgateError } from '../core/errors.js';
import { defaultLimits } from '../limits/default-limits.js';
import type { IdentityState } from '../limits/identity-state.js';
import type { AdmitEvent, LimitEvent } from '../limits/limit-event.js';
import type { LimitsConfig } from '../limits/limits-config.js';
import type { AsyncLimitsStore } from '../limits/limits-store.js';
import type { Verdict } from '../limits/verdict.js';
import { OutstandingTickets } from './outstanding-tickets.js';
import { createLimitsCaller } from './redis-caller.js';
import type { FailurePolicy } from './redis-failure-policy.js';
import { createNodePolicies } from './redis-node-policies.js';
import {
  admitArgs,
  admitVerdict,
  EXPIRED,
  resetArgs,
  type ScriptAnswer,
  settleArgs,
  settleVerdict,
} from './redis-protocol.js';
import { createSendQueue } from './redis-send-queue.js';
import { createServerClock } from './redis-server-clock.js';
import { readRedisState } from './redis-state.js';
import { checkRedisStoreOptions, type RedisStoreOptions } from './redis-store-options.js';
import { REDIS_STORE_OPTIONS } from './store-options-spec.js';

export type { RedisClientLike, RedisStoreOptions } from './redis-store-options.js';

/** A Redis store; `config` is fixed by the first call (one script per config). */
export interface RedisStore extends AsyncLimitsStore {
  /**
   * The keys of one identity in Redis: one, its value (state, sliding logs and tickets held),
   * `<prefix>{<identity>}:v2`, hash-tagged so a Cluster finds it by the identity.
   */
  keysOf(identityKey: string): readonly [value: string];
  reset(key: string): Promise<void>;
  /**
   * Releases every request this store admitted that is still in flight, sends the completions
   * Redis missed, and waits for its calls to finish: then the client can be closed. Later
   * admissions throw `TOLLGATE_STORE_UNAVAILABLE`. The client stays the caller's to quit.
   */
  close(): Promise<void>;
}

/**
 * A store over an ioredis client (`new Redis(url)` or `new Redis.Cluster(nodes)`) that the caller
 * owns. Each event is ONE run of the limits code: a Redis 7 function (`FCALL`; the library loaded
 * once; the events of one pass of the event loop in one batch call), or a Lua script by SHA (sent whole
 * once on NOSCRIPT) where functions are missing or refused (redis-caller.ts). It reads the identity's state, decides every bucket of the request as `stepInto` does, and writes
 * it back: atomically, whatever the number of instances, in either window mode. Slow, down or
 * full Redis: see `onFailure`; an admission that runs after its deadline charges nothing (its
 * batch's clock reading is taken at the batch's first event that needs it, so a later event of
 * the batch is checked at most that batch's run time, well under a millisecond, too early).
 * @example
 * import { Redis } from 'ioredis';
 * import { createLimiter } from 'tollgate';
 * import { createRedisStore } from './redis-store.js';
 * const limiter = createLimiter({ store: createRedisStore({ client: new Redis('redis://127.0.0.1:6379') }) });
 */
export function createRedisStore(options: RedisStoreOptions): RedisStore {
  checkOptions(REDIS_STORE_OPTIONS, options);
  const settings = checkRedisStoreOptions(options);
  const { client, prefix, timeoutMs } = settings;
  const serverClock = createServerClock(client);
  const caller = createLimitsCaller(client);
  // The calls of one send go as one batch call (one FCALL, one TIME for them all).
  const sends = createSendQueue(client, (sendAll) => caller.collect(sendAll));
  /** The config of the last call: the one `read` counts logs with and `reset` calls. */
  let lastConfig: LimitsConfig | undefined;
  /** Tickets Redis admitted and nobody settled yet: `close` releases them. */
  const outstanding = new OutstandingTickets();
  /** Calls sent outside the policy's watch (late releases, replays, resets) and not yet answered: `close` waits for them. */
  const inFlight = new Set<Promise<unknown>>();
  /** Completions Redis could not take, replayed once it answers again (a repeat settles nothing). */
  const unsettled: [key: string, args: readonly Buffer[]][] = [];
  let closed = false;
  /** The clock of the script: undefined (the server's `TIME`) unless in test mode. */
  let lastClock: number | undefined;
  const clockArg = (now: number) => {
    if (settings.useCallerClock) lastClock = now;
    return lastClock;
  };

  // `:v2`: the second stored format (one value per identity); keys of the first are left alone.
  const keysOf = (key: string): readonly [string] => [`${prefix}{${key}}:v2`];
  // One failure policy per Cluster master (one in all for a plain client): see redis-node-policies.ts.
  const policies = createNodePolicies(client, settings, (key) => keysOf(key)[0]);
  function tracked<T>(promise: Promise<T>): Promise<T> {
    inFlight.add(promise);
    const done = () => inFlight.delete(promise);
    promise.then(done, done);
    return promise;
  }

  /** A call of the limits code; the policy's guard or watch waits for it (else `tracked`). */
  function send(config: LimitsConfig, key: string, args: readonly Buffer[]): Promise<ScriptAnswer> {
    lastConfig = config;
    return caller.call(config, keysOf(key), args);
  }
  const call = (config: LimitsConfig, key: string, args: readonly Buffer[]) =>
    tracked(send(config, key, args));

  /**
   * Sends the completions Redis missed on the node that just answered (`answered`: its policy);
   * each settles its ticket at most once. Those of another node wait for that node's answer: with
   * one pause per Cluster master, a healthy master's answer says nothing of a dead one, and a
   * completion sent there would be lost, its slot held until its lease ran out.
   */
  function replayUnsettled(config: LimitsConfig, answered: FailurePolicy): void {
    const waiting: typeof unsettled = [];
    for (const entry of unsettled.splice(0)) {
      if (policies.of(entry[0]) === answered) void call(config, entry[0], entry[1]).catch(() => {});
      else waiting.push(entry);
    }
    for (const entry of waiting) unsettled.push(entry);
  }

  /**
   * Ran in time, answered too late: the caller was refused, so give back the slot and the primary
   * count (a 304 completion refunds it); points and content stay spent. (Settled at once, it holds
   * no slot to give back.)
   */
  function releaseLate(
    late: ScriptAnswer,
    event: AdmitEvent,
    clock: number | undefined,
    config: LimitsConfig,
  ) {
    const ticket =
      late[0] === 1 && event.settle === undefined ? admitVerdict(late, event, config).ticket : null;
    if (ticket !== null)
      void call(
        config,
        event.key,
        settleArgs({ kind: 'complete', ticket, status: 304, cpuMs: 0 }, clock),
      ).catch(() => {});
  }

  /** The admission's answer: sent at once when Redis is open and the server's clock known, else when it can be. */
  function admission(event: AdmitEvent, clock: number | undefined, config: LimitsConfig) {
    const late = (answer: ScriptAnswer) => releaseLate(answer, event, clock, config);
    const policy = policies.of(event.key);
    const offset = serverClock.known();
    if (offset !== null && policy.open())
      return policy.watchStart(
        (call) =>
          sends.later(() => {
            call.sending();
            // The watch waits at least timeoutMs from now: past that, on the server's clock, the
            // script charges nothing (the offset is a lower bound, so this is never later).
            const deadline = offset === undefined ? undefined : Date.now() + timeoutMs + offset;
            return send(config, event.key, admitArgs(event, clock, deadline));
          }),
        late,
      );
    return policy.guard(async (sent) => {
      const measured = await serverClock.offset();
      if (!sent.waiting) return null;
      // Timed from the clock's reading, not from the send queue's flush: the watch's check may run
      // before that flush, and must find the call under way.
      sent.sending();
      const deadline = measured === undefined ? undefined : Date.now() + timeoutMs + measured;
      // Through the send queue too: at a cold start every admission waits for the first clock
      // reading, and they would otherwise go one call (and one socket write) each.
      return sends.later(() =>
        sent.waiting ? send(config, event.key, admitArgs(event, clock, deadline)) : Promise.resolve(null),
      );
    }, late);
  }

  async function admit(event: AdmitEvent, now: number, config: LimitsConfig) {
    if (closed)
      throw new TollgateError('TOLLGATE_STORE_UNAVAILABLE', 'redis store: closed (`close()` was called)');
    const answer = await admission(event, clockArg(now), config);
    if (answer === null || answer[0] === EXPIRED) return policies.of(event.key).decide(event, now, config);
    // (EXPIRED: Redis answered, but past the deadline, and charged nothing: this event fails alone.)
    if (unsettled.length > 0) replayUnsettled(config, policies.of(event.key));
    const verdict = admitVerdict(answer, event, config);
    if (verdict.ticket !== null && event.settle === undefined) {
      // Bounded: a ticket settled on another instance never leaves this set; the oldest go first.
      outstanding.add(verdict.ticket);
    }
    return verdict;
  }

  async function settle(event: Exclude<LimitEvent, { kind: 'admit' }>, now: number, config: LimitsConfig) {
    const owner = policies.owning(event.ticket);
    if (owner !== undefined) return owner.decide(event, now, config);
    const policy = policies.of(event.ticket.key);
    // After close every ticket was released already: nothing is left to settle.
    if (!outstanding.delete(event.ticket) && closed) return settleVerdict([0, 0, 0], event.ticket, config);
    const args = settleArgs(event, clockArg(now));
    const answer = await (policy.open()
      ? policy.watch(sends.later(() => send(config, event.ticket.key, args)))
      : policy.guard(() => send(config, event.ticket.key, args)));
    if (answer !== null) return settleVerdict(answer, event.ticket, config);
    // Settled later, when Redis answers again; a bounded list, oldest dropped first.
    if (unsettled.length >= 10_000) unsettled.shift();
    unsettled.push([event.ticket.key, args]);
    return policy.decide(event, now, config);
  }

  return {
    sync: false,
    settlesAdmissions: true,
    keysOf,
    apply(event: LimitEvent, now: number, config: LimitsConfig): Promise<Verdict> {
      return event.kind === 'admit' ? admit(event, now, config) : settle(event, now, config);
    },
    async read(key: string): Promise<IdentityState | undefined> {
      // The logs' numbers are read as the script that wrote them counts them (its config).
      const config = lastConfig ?? defaultLimits();
      const policy = policies.of(key);
      const read = await policy.guard(() =>
        tracked(readRedisState(client, keysOf(key), config)).then((state) => ({ state })),
      );
      return read === null ? policy.read(key) : read.state;
    },
    async reset(key: string): Promise<void> {
      // Every master's policy: the key's fallback state may lie in another (its slot moved since).
      policies.reset(key);
      try {
        // The script keeps the identity's ticket counter; with no script loaded yet, no ticket
        // of this instance can be in flight, and the key just goes.
        // In turn with the calls made before it (they leave at the end of this turn): an identity
        // admitted then reset in one turn is left reset.
        await tracked(
          sends.later(() =>
            lastConfig === undefined
              ? client.del(...keysOf(key))
              : send(lastConfig, key, resetArgs(lastClock)),
          ),
        );
      } catch (error) {
        throw new TollgateError('TOLLGATE_STORE_UNAVAILABLE', `redis store: could not reset \`${key}\``, {
          cause: error,
        });
      }
    },
    async close(): Promise<void> {
      closed = true;
      const config = lastConfig;
      if (config !== undefined) {
        for (const ticket of outstanding.takeAll())
          unsettled.push([ticket.key, settleArgs({ kind: 'release', ticket, cpuMs: 0 }, lastClock)]);
        const replays = unsettled
          .splice(0)
          .map(([key, args]) => policies.of(key).guard(() => send(config, key, args)));
        await Promise.all(replays);
      }
      await policies.idle();
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
