/** The gate: one server-independent function that runs every check of a request in the service's order. */
import { checkOptions } from '../core/check-options.js';
import { TollgateError } from '../core/errors.js';
import type { Token } from '../core/token.js';
import { type AdmitRequest, createLimiter, type Limiter } from '../limiter/index.js';
import {
  httpDate,
  type LimitsIdentity,
  type LimitsStore,
  limitedResponse,
  pollInterval,
  type RateLimitBody,
  type Verdict,
} from '../limits/index.js';
import {
  createPolicy,
  type Decision,
  type EndpointEntry,
  type Policy,
  type PolicyOptions,
  type ResourceContext,
  shippedTables,
} from '../policy/index.js';
import { createBasePath, outsideDecision } from './base-path.js';
import { guardBypass } from './bypass-guard.js';
import { type CpuMark, createCpuShare, processCpuClock } from './cpu-share.js';
import type { ProxyHeader } from './forwarded-for.js';
import type { GateAnswer } from './gate-answer.js';
import type { GateHookOptions } from './gate-hook-options.js';
import { bypassOf, decisionHookOf, errorReporterOf, UNGATED } from './gate-hooks.js';
import { GATE_OPTIONS } from './gate-options-spec.js';
import { createGateResponses } from './gate-responses.js';
import { after, type MaybePromise } from './maybe-async.js';
import { readStatus } from './read-status.js';
import type { RequestFacts } from './request-facts.js';
import { BAD_CREDENTIALS, createTokenResolver, type LookupToken } from './resolve-token.js';
import { settleOnce } from './settle-once.js';

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

const UNAVAILABLE = 'The rate limit store is unavailable; try again shortly.';
const POLLED = new Set(['GET /notifications', 'GET /repos/{owner}/{repo}/notifications']);

/**
 * The gate. Order, as the service answers: a bad path or unknown endpoint first (nothing charged);
 * then the limits (a request a limit refuses is not authorized and charges nothing); then
 * authorization (a refusal still counts, as every request reaching the service does, unless
 * `countDenied: false`). `GET /rate_limit` is answered here from `limiter.status`, counting no
 * primary; a handler's 304 is refunded; `GET /notifications` answers carry `X-Poll-Interval` and
 * `Last-Modified`. Adapters only translate.
 * @example
 * import { createGate } from 'tollgate';
 * const gate = createGate({ lookupToken: (secret) => (secret === 's3cret' ? { kind: 'classic', scopes: ['repo'], user: 'octocat' } : null) });
 * const answer = await gate.check({ method: 'GET', target: '/rate_limit', header: () => undefined, remoteAddress: '203.0.113.7' });
 * answer.action; // 'respond'
 */
export function createGate(options: GateOptions): Gate {
  checkOptions(GATE_OPTIONS, options);
  const policy =
    options.policy ??
    createPolicy(shippedTables(), {
      ...(options.unknownEndpoint === undefined ? {} : { unknownEndpoint: options.unknownEndpoint }),
      ...(options.headerNames === undefined ? {} : { headerNames: options.headerNames }),
    });
  const limiter = options.limiter ?? createLimiter();
  const basePath = createBasePath(options.basePath ?? '');
  if (options.resolveToken === undefined && options.lookupToken === undefined)
    throw new TollgateError(
      'TOLLGATE_INVALID_OPTION',
      'gate: give `lookupToken` (secret => Token | null) or `resolveToken` (facts => Token | null)',
    );
  const resolveToken =
    options.resolveToken !== undefined
      ? (facts: RequestFacts) => after(options.resolveToken!(facts), (token) => token ?? BAD_CREDENTIALS)
      : createTokenResolver({
          lookupToken: options.lookupToken!,
          ...(options.tokenPrefixes === undefined ? {} : { tokenPrefixes: options.tokenPrefixes }),
          ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
          ...(options.proxyHeader === undefined ? {} : { proxyHeader: options.proxyHeader }),
        });
  const countDenied = options.countDenied ?? true;
  const load = options.load ?? (() => 0);
  const clock = options.clock ?? Date.now;
  const cpu = createCpuShare(options.measureCpu === false ? null : processCpuClock());
  const answers = limiter.config.answers;
  const pollHeaders = answers.headers;
  const bypass = guardBypass(bypassOf(options), basePath, policy.tables.routes);
  const decisionHook = decisionHookOf(options);
  const reportError = errorReporterOf(options);
  const { respond, refuse, limitHeadersOf, limitedBody, headOnly } = createGateResponses(
    limiter.config,
    options,
    clock,
  );
  const entries = new Map<string, EndpointEntry>(policy.tables.endpoints.map((entry) => [entry.key, entry]));
  const identities = new WeakMap<Token, LimitsIdentity>();

  const identify = (token: Token): LimitsIdentity => {
    let identity = identities.get(token);
    if (identity === undefined) {
      identity = limiter.identify(token);
      identities.set(token, identity);
    }
    return identity;
  };

  // Every request shares the process's CPU from the moment it arrives, also one the gate answers
  // itself: otherwise the work of refusing a flood would be charged to the requests in flight.
  // Every request shares the process's CPU from the moment it arrives, also one the gate answers
  // itself: otherwise the work of refusing a flood would be charged to the requests in flight.
  function check(facts: RequestFacts): MaybePromise<GateAnswer> {
    if (bypass?.(facts)) return UNGATED;
    const mark = cpu.start();
    let decided: MaybePromise<GateAnswer>;
    try {
      decided = decide(facts, mark);
    } catch (error) {
      cpu.stop(mark);
      throw error;
    }
    if (decided instanceof Promise)
      return decided.then(
        (answer) => concluded(answer, facts, mark),
        (error) => {
          cpu.stop(mark);
          throw error;
        },
      );
    return concluded(decided, facts, mark);
  }

  function concluded(answer: GateAnswer, facts: RequestFacts, mark: CpuMark): GateAnswer {
    // Nothing left to settle: the request's share of the CPU ends with the gate's answer.
    if (answer.action === 'respond' || answer.settle === null) cpu.stop(mark);
    if (decisionHook === null) return answer;
    try {
      return decisionHook(answer, facts);
    } catch (error) {
      // The slot of an answer that will not be served is freed before the error goes on.
      if (answer.action === 'pass') void answer.settle?.abort();
      throw error;
    }
  }

  function decide(facts: RequestFacts, mark: CpuMark): MaybePromise<GateAnswer> {
    return after(resolveToken(facts), (token) => {
      if (token === BAD_CREDENTIALS)
        return respond(facts, 401, 'Bad credentials', 'bad_credentials', null, null, {});
      const apiVersion = facts.header('x-service-api-version');
      const path = basePath.strip(facts.target);
      const request = { method: facts.method, path: path ?? facts.target, apiVersion: apiVersion ?? null };
      const decision =
        path === null
          ? outsideDecision(basePath, facts.method, facts.target, policy.options.unknownEndpoint)
          : policy.authorize(request, token);
      if (decision.reason === 'bad_path' || decision.reason === 'unknown_endpoint')
        return refuse(facts, decision, null, {});
      // Outside the table and passed on, as configured: the gate neither decides nor charges it.
      if (decision.reason === 'pass_through')
        return { action: 'pass', headers: decision.headers, decision, verdict: null, settle: null };
      if (options.resolveContext === undefined || decision.endpoint === null)
        return limit(facts, token, decision, mark);
      return after(options.resolveContext(decision.endpoint, decision.params, facts), (context) =>
        limit(facts, token, policy.authorize(request, token, context), mark),
      );
    });
  }

  function limit(
    facts: RequestFacts,
    token: Token,
    decision: Decision,
    mark: CpuMark,
  ): MaybePromise<GateAnswer> {
    if (!countDenied && !decision.allowed) return refuse(facts, decision, null, {});
    const entry = decision.endpoint === null ? undefined : entries.get(decision.endpoint);
    const identity = identify(token);
    const admit: AdmitRequest =
      entry === undefined
        ? { identity, method: facts.method }
        : {
            identity,
            method: facts.method,
            resource: entry.resource,
            cost: entry.cost,
            content: entry.content,
            countsPrimary: entry.countsAgainstPrimary,
          };
    return after(limiter.admit(admit), (verdict) => answer(facts, decision, entry, identity, verdict, mark));
  }

  function answer(
    facts: RequestFacts,
    decision: Decision,
    entry: EndpointEntry | undefined,
    identity: LimitsIdentity,
    verdict: Verdict,
    mark: CpuMark,
  ): MaybePromise<GateAnswer> {
    const limited = limitedResponse(verdict);
    const limitHeaders = limitHeadersOf(verdict);
    if (limited !== null || verdict.ticket === null) {
      const status = limited?.status ?? answers.status;
      const body = limited === null || headOnly(facts) ? '' : limitedBody(verdict, limited.body);
      return {
        action: 'respond',
        status,
        headers: { ...decision.headers, ...limitHeaders, 'content-type': answers.contentType },
        body,
        decision,
        verdict,
        reason: verdict.rule ?? verdict.reason,
      };
    }
    const settle = settleOnce(limiter, verdict.ticket, cpu, mark, facts, reportError);
    if (!decision.allowed)
      return after(settle.finish(decision.status), () => refuse(facts, decision, verdict, limitHeaders));
    if (entry?.key === 'GET /rate_limit') {
      const answered = (status: RateLimitBody | null) =>
        after(settle.finish(status === null ? 503 : 200), (): GateAnswer => {
          // The store could not tell (fail-closed): said plainly, the slot freed all the same.
          const unavailable = { [answers.headers.retryAfter]: '1' };
          if (status === null)
            return respond(facts, 503, UNAVAILABLE, 'store_unavailable', decision, verdict, unavailable);
          return {
            ...respond(facts, 200, '', 'rate_limit', decision, verdict, {
              ...decision.headers,
              ...limitHeaders,
            }),
            body: headOnly(facts) ? '' : JSON.stringify(status),
          };
        });
      // A status read that fails otherwise frees the slot it was admitted with before the error goes on.
      const failed = (error: unknown): never => {
        void settle.abort();
        throw error;
      };
      try {
        const status = readStatus(limiter, identity);
        return status instanceof Promise ? status.then(answered, failed) : answered(status);
      } catch (error) {
        return failed(error);
      }
    }
    const headers: Record<string, string> = { ...decision.headers, ...limitHeaders };
    if (entry !== undefined && POLLED.has(entry.key)) {
      headers[pollHeaders.pollInterval] = String(pollInterval(load(), limiter.config));
      headers[pollHeaders.lastModified] = httpDate(clock());
    }
    return { action: 'pass', headers, decision, verdict, settle };
  }

  return { check, reportError, policy, limiter, close: () => limiter.close() };
}
