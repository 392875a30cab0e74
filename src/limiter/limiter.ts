/** The limiter's vocabulary: requests, completions, options, and the Limiter itself. */

import type { LimitCharge, LimitsResource } from '../core/limit-charge.js';
import type { Token } from '../core/token.js';
import type { LimitsCaller, LimitsIdentity } from '../limits/identity.js';
import type { IdentityState } from '../limits/identity-state.js';
import type { Ticket } from '../limits/limit-event.js';
import type { LimitsConfig, WindowMode } from '../limits/limits-config.js';
import type { LimitsStore, SyncLimitsStore } from '../limits/limits-store.js';
import type { RateLimitBody } from '../limits/rate-limit-body.js';
import type { Verdict } from '../limits/verdict.js';
import type { WindowedRule } from '../limits/windowed-rules.js';
import type { PartialLimitsConfig } from './merge-limits.js';

/**
 * A value, or a promise of it when the store is asynchronous.
 * @example
 * import type { Verdict } from 'tollgate';
 * import type { AsyncLimitsStore, SyncLimitsStore } from 'tollgate/limits';
 * import type { StoreResult } from './limiter.js';
 * type Direct = StoreResult<SyncLimitsStore, Verdict>; // Verdict (a sync store answers directly)
 * type Later = StoreResult<AsyncLimitsStore, Verdict>; // Promise<Verdict>
 */
export type StoreResult<S extends LimitsStore, T> = S extends SyncLimitsStore ? T : Promise<T>;

/**
 * One request, as the limiter needs it.
 * @example
 * import { type AdmitRequest, createLimiter } from 'tollgate';
 * const limiter = createLimiter();
 * const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
 * const request: AdmitRequest = { identity, method: 'POST', content: true };
 * limiter.admit(request).allowed; // true
 */
export interface AdmitRequest {
  /** From `limiter.identify(token)`; cache it per token. */
  readonly identity: LimitsIdentity;
  /** Default `core`. */
  readonly resource?: LimitsResource;
  /** Points; default from `method`/`graphql`/`mutation` (see `pointCost`). */
  readonly cost?: number;
  readonly method?: string;
  readonly graphql?: boolean;
  readonly mutation?: boolean;
  /** Content-generating request (the endpoint table's `content`). Default false. */
  readonly content?: boolean;
  /** False for `GET /rate_limit`. Default true. */
  readonly countsPrimary?: boolean;
  /**
   * The request was answered already (a policy refusal that counts, as the gate's `countDenied`):
   * charged as admitted and completed with these facts, in one store call when the store can
   * (`settlesAdmissions`). The verdict's ticket then holds no slot; a limit refusal charges nothing.
   */
  readonly settle?: CompleteFacts;
}

/**
 * How the response went, for `complete`.
 * @example
 * import { type CompleteFacts, createLimiter } from 'tollgate';
 * const limiter = createLimiter();
 * const { ticket } = limiter.admit({ identity: limiter.identify({ kind: 'classic', user: 'octocat' }) });
 * if (ticket) limiter.complete(ticket, { status: 304, cpuMs: 4 } satisfies CompleteFacts);
 */
export interface CompleteFacts {
  readonly status: number;
  /** CPU time used, in ms. Default 0. */
  readonly cpuMs?: number;
}

/**
 * Options of `createLimiter`.
 * @example
 * import { createLimiter, createMemoryStore, type LimiterOptions } from 'tollgate';
 * import type { SyncLimitsStore } from 'tollgate/limits';
 * let simulatedNow = 1_700_000_000_000;
 * const options: LimiterOptions<SyncLimitsStore> = { store: createMemoryStore(), clock: () => simulatedNow };
 * const limiter = createLimiter(options);
 */
export interface LimiterOptions<S extends LimitsStore> {
  /** Default: a new memory store. */
  readonly store?: S;
  /** Epoch ms; default `Date.now`. Inject a fake clock in tests and the simulator. */
  readonly clock?: () => number;
  /**
   * Default: the shipped table (`defaultLimits()`). A partial config is merged over it, field by
   * field: `{ answers: { status: 429 } }` gives 429 refusals and keeps every shipped number.
   */
  readonly config?: PartialLimitsConfig;
  /**
   * How each per-minute or per-hour rule counts, over the table's `window_modes`: `sliding` (the
   * default: never more than C in any window (t - W, t], exact at the boundary) or `bucket` (burst
   * C, C per window sustained, so up to 2C within one window: beyond the seed's ceilings).
   * `strict` is read as `sliding`. E.g. `{ content_per_hour: 'bucket' }`.
   */
  readonly windowModes?: Readonly<Partial<Record<WindowedRule, WindowMode | 'strict'>>>;
  /**
   * Anonymous IPv6 callers are counted by their network of this many leading bits (1 to 128;
   * default: the table's `identity.ipv6_prefix`, 56). 128 counts each address apart.
   */
  readonly ipv6Prefix?: number;
}

/**
 * What a store holds for one identity, from `limiter.inspect`.
 * @example
 * import { createLimiter, type IdentitySnapshot } from 'tollgate';
 * const limiter = createLimiter();
 * const snapshot: IdentitySnapshot = limiter.inspect(limiter.identify({ kind: 'anonymous', ip: '203.0.113.7' }));
 * snapshot.state; // undefined: never seen
 */
export interface IdentitySnapshot {
  readonly key: string;
  /** The stored state (in-flight count, buckets, windows), undefined when the store holds none. */
  readonly state: IdentityState | undefined;
  /** What `GET /rate_limit` would answer this identity now. */
  readonly status: RateLimitBody;
}

/**
 * The limiter. Methods answer synchronously over a synchronous store.
 * @example
 * import { createLimiter, createMemoryStore, type Limiter } from 'tollgate';
 * import type { SyncLimitsStore } from 'tollgate/limits';
 * const limiter: Limiter<SyncLimitsStore> = createLimiter({ store: createMemoryStore() });
 */
export interface Limiter<S extends LimitsStore> {
  readonly config: LimitsConfig;
  readonly store: S;
  /** The identity and limits of a token: a whole Token, or only its kind and identity facts. */
  identify(token: LimitsCaller | Token): LimitsIdentity;
  /** Checks every rule of the request; charges all of them or, when denied, none. */
  admit(request: AdmitRequest): StoreResult<S, Verdict>;
  /**
   * The same for a request on a known endpoint, charged by the endpoint's own `charge` (a policy
   * match's `entry.charge`), with `settle` as in AdmitRequest. The form for a server's hot path: no
   * request object per call.
   * @example
   * import { createLimiter, createPolicy, shippedTables } from 'tollgate';
   * const policy = createPolicy(shippedTables());
   * const limiter = createLimiter();
   * const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
   * const match = policy.match({ method: 'POST', path: '/repos/acme/app/issues' });
   * if (match.kind === 'endpoint') limiter.admit(identity, match.entry.charge).allowed; // true
   */
  admit(identity: LimitsIdentity, charge: LimitCharge, settle?: CompleteFacts): StoreResult<S, Verdict>;
  /**
   * The response was sent: frees the slot, charges CPU, refunds a 304. A ticket settles once: a
   * second `complete` or `release` of the same ticket object changes nothing and returns the first
   * answer (a serialized copy of a ticket is another object; settle through one copy only).
   */
  complete(ticket: Ticket, facts: CompleteFacts): StoreResult<S, Verdict>;
  /**
   * The same with the facts as arguments (`cpuMs` default 0), as `release` takes them: no facts
   * object per call.
   * @example
   * import { createLimiter } from 'tollgate';
   * const limiter = createLimiter();
   * const { ticket } = limiter.admit({ identity: limiter.identify({ kind: 'classic', user: 'octocat' }) });
   * if (ticket) limiter.complete(ticket, 200, 3).allowed; // true
   */
  complete(ticket: Ticket, status: number, cpuMs?: number): StoreResult<S, Verdict>;
  /** The request was aborted: frees the slot. Once per ticket, as `complete`. */
  release(ticket: Ticket, cpuMs?: number): StoreResult<S, Verdict>;
  /** The `GET /rate_limit` body for an identity. */
  status(identity: LimitsIdentity): StoreResult<S, RateLimitBody>;
  /** What the store holds for one identity (an operator's look; nothing is charged). */
  inspect(identity: LimitsIdentity): StoreResult<S, IdentitySnapshot>;
  /** Forgets one identity: fresh limits at once, and its requests in flight settle nothing. */
  reset(identity: LimitsIdentity): StoreResult<S, void>;
  /** Closes the store (`store.close()`, if it has one): a Redis store settles what is in flight first. */
  close(): Promise<void>;
}
