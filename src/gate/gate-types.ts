/** The gate's options and the gate itself: what `createGate` takes and gives. */
import type { Token } from '../core/token.js';
import type { Limiter } from '../limiter/limiter.js';
import type { LimitsStore } from '../limits/limits-store.js';
import type { Policy } from '../policy/authorize.js';
import type { PolicyOptions } from '../policy/policy-options.js';
import type { ResourceContext } from '../policy/types.js';
import type { ProxyHeader } from './forwarded-for.js';
import type { GateAnswer } from './gate-answer.js';
import type { GateHookOptions } from './gate-hook-options.js';
import type { MaybePromise } from './maybe-async.js';
import type { RequestFacts } from './request-facts.js';
import type { LookupToken } from './resolve-token.js';

/**
 * Options of `createGate`. Give `lookupToken` (the default resolver's) or `resolveToken`. The
 * hooks (`skip`, `corsPreflight`, `onDecision`, `onError`, `standardHeaders`, `documentationUrls`)
 * are described in GateHookOptions.
 */
export interface GateOptions extends GateHookOptions {
  /** Default: `createPolicy(shippedTables(), { unknownEndpoint, headerNames })`. */
  readonly policy?: Policy;
  /** Default: `createLimiter()` (memory store, the shipped limits, `Date.now`). */
  readonly limiter?: Limiter<LimitsStore>;
  /** The token a secret of an `Authorization` header stands for; null: bad credentials (401). */
  readonly lookupToken?: LookupToken;
  /** Secret prefix to token kind, told to `lookupToken`. */
  readonly tokenPrefixes?: Readonly<Record<string, Token['kind']>>;
  /** Trusted proxy hops for the anonymous caller's address (default 0: the socket's address). */
  readonly trustProxy?: boolean | number;
  /** The header those proxies write the address into: `x-forwarded-for` (default), `forwarded` or `x-real-ip`. */
  readonly proxyHeader?: ProxyHeader;
  /** Replaces the default resolver: the request's token, or null for bad credentials (401). */
  readonly resolveToken?: (facts: RequestFacts) => Token | null | Promise<Token | null>;
  /** Facts only the server knows about the resource (visibility, organization owner). Default: private, not an owner. */
  readonly resolveContext?: (
    endpoint: string,
    params: Readonly<Record<string, string>>,
    facts: RequestFacts,
  ) => ResourceContext | Promise<ResourceContext>;
  /** Whether a request refused by permission counts against the primary limit and the points. Default true. */
  readonly countDenied?: boolean;
  /** With the default policy: `deny` (404, default) or `pass-through` for paths outside the table. */
  readonly unknownEndpoint?: PolicyOptions['unknownEndpoint'];
  /** With the default policy: the permission header names. */
  readonly headerNames?: PolicyOptions['headerNames'];
  /** Where the API lives (default `''`), after a framework's own prefix; outside it: unknown endpoints. */
  readonly basePath?: string;
  /** The service's load (0 idle, 1 full) for `X-Poll-Interval`. Default: always 0. */
  readonly load?: () => number;
  /** Epoch ms for `Last-Modified`. Default `Date.now`. */
  readonly clock?: () => number;
  /** Charge each request its share of the process's CPU time (default true where the runtime tells it). */
  readonly measureCpu?: boolean;
}

/** A gate bound to its policy and limiter. */
export interface Gate {
  /**
   * Every check of one request: pass it on (and settle it later) or answer it here. A plain value
   * when the token lookup and the store answer synchronously (the memory store), else a promise.
   */
  check(facts: RequestFacts): MaybePromise<GateAnswer>;
  /**
   * Tells the gate's `onError` (when set) of an error about `facts`. Adapters call it first for
   * every error they catch (the gate's, or a handler's), then take the framework's error path.
   */
  reportError(error: unknown, facts: RequestFacts): void;
  readonly policy: Policy;
  readonly limiter: Limiter<LimitsStore>;
  /** Clean shutdown, once the server stopped taking requests: closes the limiter's store (see README). */
  close(): Promise<void>;
}
