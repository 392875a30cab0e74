/** What a Redis store does when Redis is slow, down, full or still connecting: timeouts, the pause, and the failure mode's local answers. */
import { TollgateError } from '../core/errors.js';
import { allowedVerdict } from '../limits/answers.js';
import type { IdentityState } from '../limits/identity-state.js';
import { AdmissionTicket, type LimitEvent, type Ticket } from '../limits/limit-event.js';
import type { LimitsConfig } from '../limits/limits-config.js';
import { unavailableVerdict } from '../limits/unavailable-verdict.js';
import type { Verdict } from '../limits/verdict.js';
import { createMemoryStore } from './memory-store.js';
import { type CallInFlight, type CallWatch, createCallWatch } from './redis-call-watch.js';

/** What the policy needs of the client: its connection state and, when it has them, its events. */
export interface ConnectionLike {
  readonly status: string;
  once?(event: 'ready', listener: () => void): unknown;
  removeListener?(event: 'ready', listener: () => void): unknown;
}

export type FailureMode = 'fail-closed' | 'fail-open' | 'fallback';

/** The policy that answered each ticket it answered itself (fallback or fail-open), shared by a store's policies. */
export type TicketOwners = WeakMap<Ticket, FailurePolicy>;

export interface FailurePolicyOptions {
  readonly timeoutMs: number;
  readonly onFailure: FailureMode;
  readonly retryAfterFailureMs: number;
  /** The part of each limit one instance enforces in `fallback` (0 < share <= 1). */
  readonly fallbackShare: number;
  /** Who fails, in an error's words: `redis store: Redis` by default, `guardStore: the store`. */
  readonly failing?: string;
}

/**
 * The store's guard: runs Redis work within the timeout, and answers for Redis when it cannot.
 * Its `watch` and `watchStart` are the call watch's (redis-call-watch.ts).
 */
export interface FailurePolicy extends Pick<CallWatch, 'watch' | 'watchStart'> {
  /**
   * The work's result, or null when Redis is down, paused after a failure, failed, or slower than
   * `timeoutMs`. `work` is told whether its answer is still awaited (`call.waiting`; false: send
   * nothing more), and says when it sends (`call.sending()`): it gets `timeoutMs` from then,
   * however long the event loop kept it from sending. A result that arrives after null was
   * answered goes to `late`.
   */
  guard<T>(work: (call: CallInFlight) => Promise<T | null>, late?: (value: T) => void): Promise<T | null>;
  /**
   * True when a call may go out at once: the connection ready, no pause after a failure. Then
   * `watch` takes a call already sent, as `guard` would have.
   */
  open(): boolean;
  /** Resolves once every call guarded or watched so far settled. */
  idle(): Promise<void>;
  /** The failure mode's verdict for an event Redis could not take. */
  decide(event: LimitEvent, now: number, config: LimitsConfig): Verdict;
  /** True when this ticket was admitted here, not by Redis: it is settled here too. */
  ownsTicket(ticket: Ticket): boolean;
  /** The failure mode's answer to a state read Redis could not take. */
  read(key: string): IdentityState | undefined;
  reset(key: string): void;
}

/** Client states of a connection known to be down; a command queued behind one would run late. */
const BROKEN = new Set(['reconnecting', 'close', 'end', 'disconnecting']);
/** States of a connection still being made: worth waiting for, up to the timeout. */
const CONNECTING = new Set(['connecting', 'connect']);

/** The config one instance enforces in `fallback`: every ceiling times `share`, at least 1. */
function shareOf(config: LimitsConfig, share: number): LimitsConfig {
  const part = (n: number) => Math.max(1, Math.floor(n * share));
  const { secondary } = config;
  return {
    ...config,
    secondary: {
      ...secondary,
      concurrency: { ...secondary.concurrency, limit: part(secondary.concurrency.limit) },
      points: {
        ...secondary.points,
        rest: part(secondary.points.rest),
        graphql: part(secondary.points.graphql),
      },
      cpu: {
        ...secondary.cpu,
        totalMs: part(secondary.cpu.totalMs),
        graphqlMs: part(secondary.cpu.graphqlMs),
      },
      content: { perMinute: part(secondary.content.perMinute), perHour: part(secondary.content.perHour) },
    },
  };
}

/**
 * The failure policy of one Redis store (a layer around it, as rate-limiter-flexible's insurance
 * limiter is). A timeout counts only time the event loop was free to read the reply: a timer that
 * ran late because the loop was busy waits once more (up to 20 timeouts, at least 1 s, in all),
 * so a reply that arrived is used (redis-call-watch.ts). A connection still being made is waited
 * for, within the timeout. After a failure, Redis is left alone and the mode decides for
 * `retryAfterFailureMs`; after a calm spell, only until Redis answers a call sent before (below).
 * The tickets it answers itself go in `owners` (a store's policies share one: redis-node-policies.ts).
 * @example
 * import { createFailurePolicy } from './redis-failure-policy.js';
 * const policy = createFailurePolicy({ status: 'ready' }, { timeoutMs: 50, onFailure: 'fallback', retryAfterFailureMs: 1000, fallbackShare: 0.5 });
 * await policy.guard(async () => 'PONG'); // 'PONG'
 */
export function createFailurePolicy(
  connection: ConnectionLike,
  options: FailurePolicyOptions,
  owners: TicketOwners = new WeakMap(),
): FailurePolicy {
  const { timeoutMs, onFailure, retryAfterFailureMs, fallbackShare } = options;
  const local = onFailure === 'fallback' ? createMemoryStore() : null;
  /** Tickets answered here (fallback or fail-open), in `owners`: settled here, whatever Redis does meanwhile. */
  const owns = (ticket: Ticket) => owners.get(ticket) === policy;
  const shares = new WeakMap<LimitsConfig, LimitsConfig>();
  /** The pause lasts until then; once past, when the last pause ended. */
  let downUntil = 0;
  /** The pause under way ends at Redis's next answer. */
  let endsOnAnswer = false;
  /** Redis answered a call in time since the last pause ended (or ever, before the first). */
  let answeredInTime = true;

  // A pause ends at Redis's next answer, late ones included, when Redis answered a call in time
  // since the last pause: a Redis that stalled a moment (a busy host, a fork, a slow command of
  // another client) costs the calls that waited on it, not a whole retryAfterFailureMs of failure
  // answers. Else Redis stays slower than the timeout, and the pause holds its whole length
  // whatever Redis answers: it is left alone, not sent a fresh round of calls to wait on after
  // each late answer.
  const failed = () => {
    const now = Date.now();
    if (now >= downUntil) {
      endsOnAnswer = answeredInTime;
      answeredInTime = false;
    }
    downUntil = now + retryAfterFailureMs;
  };
  const replied = (inTime: boolean) => {
    if (inTime) answeredInTime = true;
    if (!endsOnAnswer) return;
    endsOnAnswer = false;
    downUntil = Math.min(downUntil, Date.now());
  };
  const calls = createCallWatch(timeoutMs, Math.max(1000, 20 * timeoutMs), failed, replied);

  /**
   * One 'ready' listener however many admissions wait for the connection (a listener each made
   * ioredis warn past ten); each waiter keeps its own deadline.
   */
  let readyOnce: Promise<void> | null = null;
  const whenReady = () => {
    readyOnce ??= new Promise<void>((resolve) => {
      connection.once!('ready', () => {
        readyOnce = null;
        resolve();
      });
    });
    return readyOnce;
  };

  /** Resolves when the connection is ready (or after `timeoutMs`), or at once when it is not being made. */
  function connected(): Promise<void> | undefined {
    if (!CONNECTING.has(connection.status) || typeof connection.once !== 'function') return undefined;
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      timer.unref?.();
      whenReady().then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  function guard<T>(
    work: (call: CallInFlight) => Promise<T | null>,
    late?: (value: T) => void,
  ): Promise<T | null> {
    if (Date.now() < downUntil || BROKEN.has(connection.status)) return Promise.resolve(null);
    const waited = connected();
    if (waited === undefined) return calls.watchStart(work, late);
    return calls.watchStart((call) => waited.then(() => (call.waiting ? work(call) : null)), late);
  }

  function decide(event: LimitEvent, now: number, config: LimitsConfig): Verdict {
    if (event.kind !== 'admit' && owns(event.ticket) && local === null)
      return Object.assign(allowedVerdict(event.ticket.resource, event.ticket.limit, 0, 0, null, config), {
        degraded: 'fail-open' as const,
      });
    if (local !== null) {
      let shared = shares.get(config);
      if (shared === undefined) {
        shared = shareOf(config, fallbackShare);
        shares.set(config, shared);
      }
      const scaled =
        event.kind === 'admit'
          ? { ...event, limit: Math.max(1, Math.floor(event.limit * fallbackShare)) }
          : event;
      const verdict = local.apply(scaled, now, shared);
      if (verdict.ticket !== null) owners.set(verdict.ticket, policy);
      return Object.assign(verdict, { degraded: 'fallback' as const });
    }
    const resource = event.kind === 'admit' ? event.resource : event.ticket.resource;
    const limit = event.kind === 'admit' ? event.limit : event.ticket.limit;
    if (event.kind !== 'admit' || onFailure === 'fail-open') {
      const ticket =
        event.kind === 'admit'
          ? new AdmissionTicket(event.key, resource, event.graphql, limit, 0, -1, 0)
          : null;
      if (ticket !== null) owners.set(ticket, policy);
      return Object.assign(allowedVerdict(resource, limit, 0, 0, ticket, config), {
        degraded: 'fail-open' as const,
      });
    }
    return unavailableVerdict(resource, limit, config);
  }

  const policy: FailurePolicy = {
    guard,
    open: () => connection.status === 'ready' && Date.now() >= downUntil,
    watch: calls.watch,
    watchStart: calls.watchStart,
    idle: calls.idle,
    decide,
    ownsTicket: owns,
    read(key) {
      if (local !== null) return local.read(key);
      if (onFailure === 'fail-open') return undefined;
      throw new TollgateError(
        'TOLLGATE_STORE_UNAVAILABLE',
        `${options.failing ?? 'redis store: Redis'} failed or did not answer within ${timeoutMs} ms (onFailure \`fail-closed\`)`,
      );
    },
    reset: (key) => local?.reset(key),
  };
  return policy;
}
