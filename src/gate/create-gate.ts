/** The gate: one server-independent function that runs every check of a request in the service's order. */
import { checkOptions } from '../core/check-options.js';
import type { Token } from '../core/token.js';
import { createLimiter } from '../limiter/create-limiter.js';
import { limitedResponse } from '../limits/answers.js';
import type { LimitsIdentity } from '../limits/identity.js';
import type { RuleStanding } from '../limits/nearest-rule.js';
import { httpDate, pollInterval } from '../limits/poll-interval.js';
import type { Verdict } from '../limits/verdict.js';
import { createPolicy } from '../policy/authorize.js';
import type { PolicyMatch } from '../policy/policy-match.js';
import { shippedTables } from '../policy/shipped-tables.js';
import type { EndpointEntry } from '../policy/tables.js';
import type { Decision } from '../policy/types.js';
import { createBasePath, outsideDecision } from './base-path.js';
import { guardBypass } from './bypass-guard.js';
import { createCpuShare, processCpuClock } from './cpu-share.js';
import type { GateAnswer } from './gate-answer.js';
import { bypassOf, decisionHookOf, errorReporterOf, UNGATED } from './gate-hooks.js';
import { GATE_OPTIONS } from './gate-options-spec.js';
import { type GateGround, GateRequest } from './gate-request.js';
import { createGateResponses } from './gate-responses.js';
import type { Gate, GateOptions } from './gate-types.js';
import { withCallForms } from './limiter-call-forms.js';
import { after, isThenable, type MaybePromise } from './maybe-async.js';
import { nearestOf } from './nearest-of.js';
import { rateLimitAnswer } from './rate-limit-answer.js';
import type { RequestFacts } from './request-facts.js';
import { BAD_CREDENTIALS, createTokenResolver, orBadCredentials } from './resolve-token.js';

export type { Gate, GateOptions } from './gate-types.js';

// The polled endpoints' keys, compared as strings: a Set's lookup hashed the key on every request.
const isPolled = (key: string): boolean =>
  key === 'GET /notifications' || key === 'GET /repos/{owner}/{repo}/notifications';

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
  const given = options.limiter ?? createLimiter();
  const limiter = withCallForms(given);
  const basePath = createBasePath(options.basePath ?? '');
  const resolveToken =
    options.resolveToken !== undefined
      ? (facts: RequestFacts) => after(options.resolveToken!(facts), orBadCredentials)
      : createTokenResolver({
          lookupToken: options.lookupToken!,
          ...(options.tokenPrefixes === undefined ? {} : { tokenPrefixes: options.tokenPrefixes }),
          ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
          ...(options.proxyHeader === undefined ? {} : { proxyHeader: options.proxyHeader }),
        });
  const countDenied = options.countDenied ?? true;
  const load = options.load ?? (() => 0);
  const clock = options.clock ?? Date.now;
  const standardForm = options.standardHeaders ?? false;
  const cpu = createCpuShare(options.measureCpu === false ? null : processCpuClock());
  const answers = limiter.config.answers;
  const pollHeaders = answers.headers;
  const bypass = guardBypass(bypassOf(options), basePath, policy.tables.routes);
  const decisionHook = decisionHookOf(options);
  const reportError = errorReporterOf(options);
  const responses = createGateResponses(limiter.config, options, clock);
  const { respond, refuse, limitHeadersOf, admittedHeaders, limitedBody, headOnly } = responses;
  const identities = new WeakMap<Token, LimitsIdentity>();
  const ground: GateGround = { limiter, cpu, report: reportError };

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
  // No closure and no context object per request on the synchronous path (a memory store, a
  // synchronous lookup): each step that may wait has its continuation in a function of its own
  // (`...Later`), so the functions of the straight line capture nothing (V8 makes a context for
  // every call of a function whose closures capture its variables, whichever branch runs).
  function check(facts: RequestFacts): MaybePromise<GateAnswer> {
    if (bypass?.(facts)) return UNGATED;
    // The request's one record: its CPU mark from here on, its Settle once admitted.
    const request = new GateRequest(ground, facts);
    let decided: MaybePromise<GateAnswer>;
    try {
      decided = decide(request);
    } catch (error) {
      request.stopCpu();
      throw error;
    }
    return decided instanceof Promise ? concludedLater(decided, request) : concluded(decided, request);
  }

  function concludedLater(decided: Promise<GateAnswer>, request: GateRequest): Promise<GateAnswer> {
    return decided.then(
      (answer) => concluded(answer, request),
      (error) => {
        request.stopCpu();
        throw error;
      },
    );
  }

  function concluded(answer: GateAnswer, request: GateRequest): GateAnswer {
    // Nothing left to settle: the request's share of the CPU ends with the gate's answer.
    if (answer.action === 'respond' || answer.settle === null) request.stopCpu();
    if (decisionHook === null) return answer;
    try {
      return decisionHook(answer, request.facts);
    } catch (error) {
      // The slot of an answer that will not be served is freed before the error goes on.
      if (answer.action === 'pass') void answer.settle?.abort();
      throw error;
    }
  }

  // One straight line: the path is matched once, the server's facts asked for that endpoint, the
  // request decided once, and the limits charged from the endpoint's own row.
  function decide(request: GateRequest): MaybePromise<GateAnswer> {
    const token = resolveToken(request.facts);
    return isThenable(token) ? decideLater(token, request) : decideFor(request, token);
  }

  function decideLater(token: PromiseLike<Token | typeof BAD_CREDENTIALS>, request: GateRequest) {
    return Promise.resolve(token).then((given) => decideFor(request, given));
  }

  function decideFor(request: GateRequest, token: Token | typeof BAD_CREDENTIALS): MaybePromise<GateAnswer> {
    const facts = request.facts;
    if (token === BAD_CREDENTIALS)
      return respond(facts, 401, 'Bad credentials', 'bad_credentials', null, null, {});
    const path = basePath.strip(facts.target);
    if (path === null)
      return unmatched(
        facts,
        outsideDecision(basePath, facts.method, facts.target, policy.options.unknownEndpoint),
      );
    const apiVersion = facts.header('x-service-api-version');
    const matched = policy.match({ method: facts.method, path, apiVersion: apiVersion ?? null });
    if (matched.kind !== 'endpoint') return unmatched(facts, policy.decide(matched, token));
    if (options.resolveContext === undefined)
      return limit(request, token, matched.entry, policy.decide(matched, token));
    return limitInContext(request, token, matched, options.resolveContext);
  }

  function limitInContext(
    request: GateRequest,
    token: Token,
    matched: PolicyMatch & { kind: 'endpoint' },
    resolveContext: NonNullable<GateOptions['resolveContext']>,
  ): MaybePromise<GateAnswer> {
    return after(resolveContext(matched.entry.key, matched.params, request.facts), (context) =>
      limit(request, token, matched.entry, policy.decide(matched, token, context)),
    );
  }

  /** A request on no endpoint: refused (bad path, unknown endpoint) or passed on as configured, never charged. */
  function unmatched(facts: RequestFacts, decision: Decision): MaybePromise<GateAnswer> {
    if (decision.reason === 'pass_through')
      return { action: 'pass', headers: decision.headers, decision, verdict: null, settle: null };
    return refuse(facts, decision, null, {});
  }

  function limit(
    request: GateRequest,
    token: Token,
    entry: EndpointEntry,
    decision: Decision,
  ): MaybePromise<GateAnswer> {
    if (!countDenied && !decision.allowed) return refuse(request.facts, decision, null, {});
    const identity = identify(token);
    // A policy refusal that counts is answered here: admitted and settled in one store call,
    // with the CPU the gate spent on it (a limit refusal still charges nothing).
    const settle = decision.allowed ? undefined : { status: decision.status, cpuMs: request.stopCpu() };
    // The endpoint's own charge, as the row holds it: no request object per call.
    const admitted = limiter.admit(identity, entry.charge, settle);
    return isThenable(admitted)
      ? admittedLater(admitted, request, decision, entry, identity)
      : admittedAnswer(request, decision, entry, admitted, identity);
  }

  function admittedLater(
    admitted: PromiseLike<Verdict>,
    request: GateRequest,
    decision: Decision,
    entry: EndpointEntry,
    identity: LimitsIdentity,
  ): Promise<GateAnswer> {
    return Promise.resolve(admitted).then((verdict) =>
      admittedAnswer(request, decision, entry, verdict, identity),
    );
  }

  function admittedAnswer(
    request: GateRequest,
    decision: Decision,
    entry: EndpointEntry,
    verdict: Verdict,
    identity: LimitsIdentity,
  ): MaybePromise<GateAnswer> {
    // Only with standardHeaders, and only when no secondary rule refused: the IETF fields then
    // report the rule nearest exhaustion, read from the identity's state (one store read).
    return standardForm === false || (verdict.rule !== null && verdict.rule !== 'primary')
      ? answer(request, decision, entry, verdict, identity, undefined)
      : nearestAnswer(request, decision, entry, verdict, identity);
  }

  function nearestAnswer(
    request: GateRequest,
    decision: Decision,
    entry: EndpointEntry,
    verdict: Verdict,
    identity: LimitsIdentity,
  ): MaybePromise<GateAnswer> {
    return after(nearestOf(limiter, clock, identity, verdict, entry.charge), (nearest) =>
      answer(request, decision, entry, verdict, identity, nearest),
    );
  }

  function answer(
    request: GateRequest,
    decision: Decision,
    entry: EndpointEntry,
    verdict: Verdict,
    identity: LimitsIdentity,
    nearest: RuleStanding | undefined,
  ): MaybePromise<GateAnswer> {
    const facts = request.facts;
    const limited = limitedResponse(verdict);
    // Charged and settled already (see `limit`): nothing is held.
    if (limited === null && verdict.allowed && !decision.allowed)
      return refuse(facts, decision, verdict, limitHeadersOf(verdict, nearest));
    if (limited !== null || verdict.ticket === null) {
      const limitHeaders = limitHeadersOf(verdict, nearest);
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
    const settle = request.admitted(verdict.ticket);
    if (entry.key === 'GET /rate_limit') {
      return rateLimitAnswer(limiter, responses, {
        facts,
        settle,
        decision,
        verdict,
        identity,
        limitHeaders: limitHeadersOf(verdict, nearest),
      });
    }
    const headers = admittedHeaders(decision, verdict, nearest);
    if (isPolled(entry.key)) {
      headers[pollHeaders.pollInterval] = String(pollInterval(load(), limiter.config));
      headers[pollHeaders.lastModified] = httpDate(clock());
    }
    return { action: 'pass', headers, decision, verdict, settle };
  }

  return { check, reportError, policy, limiter: given, close: () => given.close() };
}
