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
import { type CpuMark, createCpuShare, processCpuClock } from './cpu-share.js';
import type { GateAnswer, RespondAnswer, Settle } from './gate-answer.js';
import { GATE_OPTIONS } from './gate-options-spec.js';
import { after, type MaybePromise } from './maybe-async.js';
import type { RequestFacts } from './request-facts.js';
import { BAD_CREDENTIALS, createTokenResolver, type LookupToken } from './resolve-token.js';

/** Options of `createGate`. Give `lookupToken` (the default resolver's) or `resolveToken`. */
export interface GateOptions {
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
  readonly policy: Policy;
  readonly limiter: Limiter<LimitsStore>;
}

// The service's own words for answers that must not say more: a hidden resource is just not there.
const PLAIN_MESSAGES: Readonly<Record<number, string>> = { 401: 'Requires authentication', 404: 'Not Found' };
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
        });
  const countDenied = options.countDenied ?? true;
  const load = options.load ?? (() => 0);
  const clock = options.clock ?? Date.now;
  const cpu = createCpuShare(options.measureCpu === false ? null : processCpuClock());
  const answers = limiter.config.answers;
  const pollHeaders = answers.headers;
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

  function respond(
    facts: RequestFacts,
    status: number,
    message: string,
    reason: string,
    decision: Decision | null,
    headers: Readonly<Record<string, string>>,
  ): RespondAnswer {
    const body = headOnly(facts)
      ? ''
      : JSON.stringify({ message, documentation_url: answers.documentationUrl, status: String(status) });
    return {
      action: 'respond',
      status,
      headers: { ...headers, 'content-type': answers.contentType },
      body,
      decision,
      reason,
    };
  }

  const refuse = (facts: RequestFacts, decision: Decision, limitHeaders: Readonly<Record<string, string>>) =>
    respond(
      facts,
      decision.status,
      PLAIN_MESSAGES[decision.status] ?? decision.message,
      decision.reason,
      decision,
      { ...decision.headers, ...limitHeaders },
    );

  function settleOnce(ticket: NonNullable<Verdict['ticket']>, mark: CpuMark): Settle {
    let settled = false;
    return {
      finish(status, cpuMs) {
        if (settled) return;
        settled = true;
        const share = cpu.stop(mark);
        return after(limiter.complete(ticket, { status, cpuMs: cpuMs ?? share }), () => undefined);
      },
      abort() {
        if (settled) return;
        settled = true;
        return after(limiter.release(ticket, cpu.stop(mark)), () => undefined);
      },
    };
  }

  const headOnly = (facts: RequestFacts) => facts.method.toUpperCase() === 'HEAD';

  // Every request shares the process's CPU from the moment it arrives, also one the gate answers
  // itself: otherwise the work of refusing a flood would be charged to the requests in flight.
  function check(facts: RequestFacts): MaybePromise<GateAnswer> {
    const mark = cpu.start();
    return after(decide(facts, mark), (answer) => {
      if (answer.action === 'respond') cpu.stop(mark);
      return answer;
    });
  }

  function decide(facts: RequestFacts, mark: CpuMark): MaybePromise<GateAnswer> {
    return after(resolveToken(facts), (token) => {
      if (token === BAD_CREDENTIALS)
        return respond(facts, 401, 'Bad credentials', 'bad_credentials', null, {});
      const apiVersion = facts.header('x-service-api-version');
      const request = { method: facts.method, path: facts.target, apiVersion: apiVersion ?? null };
      const decision = policy.authorize(request, token);
      if (decision.reason === 'bad_path' || decision.reason === 'unknown_endpoint')
        return refuse(facts, decision, {});
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
    if (!countDenied && !decision.allowed) return refuse(facts, decision, {});
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
    if (limited !== null || verdict.ticket === null) {
      const { status, headers, body } = limited ?? {
        status: answers.status,
        headers: verdict.headers,
        body: '',
      };
      return {
        action: 'respond',
        status,
        headers: { ...decision.headers, ...headers, 'content-type': answers.contentType },
        body: headOnly(facts) ? '' : body,
        decision,
        reason: verdict.rule ?? verdict.reason,
      };
    }
    const settle = settleOnce(verdict.ticket, mark);
    if (!decision.allowed)
      return after(settle.finish(decision.status), () => refuse(facts, decision, verdict.headers));
    if (entry?.key === 'GET /rate_limit')
      return after(limiter.status(identity), (status) =>
        after(
          settle.finish(200),
          (): GateAnswer => ({
            ...respond(facts, 200, '', 'rate_limit', decision, { ...decision.headers, ...verdict.headers }),
            body: headOnly(facts) ? '' : JSON.stringify(status),
          }),
        ),
      );
    const headers: Record<string, string> = { ...decision.headers, ...verdict.headers };
    if (entry !== undefined && POLLED.has(entry.key)) {
      headers[pollHeaders.pollInterval] = String(pollInterval(load(), limiter.config));
      headers[pollHeaders.lastModified] = httpDate(clock());
    }
    return { action: 'pass', headers, decision, settle };
  }

  return { check, policy, limiter };
}
