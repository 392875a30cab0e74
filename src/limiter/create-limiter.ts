/** The limiter the middleware and the simulator share: `admit` and `complete` over a store. */
import { checkOptions } from '../core/check-options.js';
import { TollgateError } from '../core/errors.js';
import { defaultLimits } from '../limits/default-limits.js';
import { identityOf, type LimitsIdentity } from '../limits/identity.js';
import type { IdentityState } from '../limits/identity-state.js';
import { AdmissionTicket, type AdmitEvent, type CompleteEvent, type Ticket } from '../limits/limit-event.js';
import type { LimitsConfig } from '../limits/limits-config.js';
import { LIMITS_RESOURCES } from '../limits/limits-config.js';
import type { LimitsStore, SyncLimitsStore } from '../limits/limits-store.js';
import { pointCost } from '../limits/point-cost.js';
import { rateLimitBody } from '../limits/rate-limit-body.js';
import type { Verdict } from '../limits/verdict.js';
import { withWindowModes } from '../limits/with-window-modes.js';
import { createMemoryStore } from '../stores/memory-store.js';
import type { AdmitRequest, CompleteFacts, IdentitySnapshot, Limiter, LimiterOptions } from './limiter.js';
import { LIMITER_OPTIONS } from './limiter-options-spec.js';
import { mergeLimits } from './merge-limits.js';

/**
 * Where the store last kept an identity, cached on the identities `identify` returns (a
 * non-enumerable symbol property: invisible to JSON and equality). Stores verify hints, so a stale
 * one only costs the lookup it was meant to save.
 */
const ROW_HINT = Symbol('tollgate.rowHint');
type HintedIdentity = LimitsIdentity & { [ROW_HINT]?: number };

function remember(identity: HintedIdentity, hint: number, verdict: Verdict): Verdict {
  const ticket = verdict.ticket;
  if (ticket !== null && ticket.hint !== hint) identity[ROW_HINT] = ticket.hint;
  return verdict;
}

/** `remember` once an asynchronous store answers (a function apart: see admitThenComplete). */
function rememberLater(identity: HintedIdentity, hint: number, verdict: Promise<Verdict>): Promise<Verdict> {
  return verdict.then((v) => remember(identity, hint, v));
}

/**
 * Set on a ticket by its first `complete` or `release`: the verdict that settlement answered. A
 * ticket settles once: later calls return that verdict and change nothing (Node emits both
 * `finish` and `close`, so adapters settle twice in practice). The mark is a symbol property of
 * the ticket object, invisible to JSON: a serialized copy (a ticket sent to another server) is a
 * new object that can settle once more, so settle each request through one copy only.
 */

/** The config with anonymous IPv6 callers grouped by `prefix` bits (1 to 128). */
function withIpv6Prefix(config: LimitsConfig, prefix: number): LimitsConfig {
  if (!Number.isInteger(prefix) || prefix < 1 || prefix > 128)
    throw invalid(`\`ipv6Prefix\` must be an integer from 1 to 128, got \`${String(prefix)}\``);
  return { ...config, identity: { ...config.identity, ipv6Prefix: prefix } };
}

function invalid(message: string): TollgateError {
  return new TollgateError('TOLLGATE_INVALID_OPTION', `limiter: ${message}`);
}

/**
 * The CPU time of a finished request, checked where it enters: non-finite or negative is misuse
 * (Infinity would deny the identity forever). A large finite value is clamped by the CPU rule.
 */
function checkCpu(cpuMs: number | undefined): number {
  if (cpuMs === undefined) return 0;
  if (typeof cpuMs !== 'number' || !Number.isFinite(cpuMs) || cpuMs < 0) {
    throw invalid(`\`cpuMs\` must be a finite number of milliseconds >= 0, got \`${String(cpuMs)}\``);
  }
  return cpuMs;
}

// The facts an admission is settled with: a status the service could answer, CPU as `complete` takes it.
function settleFacts(facts: CompleteFacts): { status: number; cpuMs: number } {
  const status = facts?.status;
  if (!Number.isInteger(status) || status < 100 || status > 599)
    throw invalid(`\`settle.status\` must be an HTTP status from 100 to 599, got \`${String(status)}\``);
  return { status, cpuMs: checkCpu(facts.cpuMs) };
}

/**
 * Creates a limiter over a store (default: memory), a clock (default: `Date.now`) and a config
 * (default: the shipped table). Verdicts are values; only misuse throws (`TOLLGATE_INVALID_OPTION`).
 * @example
 * import { createLimiter } from 'tollgate';
 * const limiter = createLimiter();
 * const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
 * const verdict = limiter.admit({ identity, method: 'GET' });
 * if (verdict.ticket) limiter.complete(verdict.ticket, { status: 200, cpuMs: 3 });
 */
export function createLimiter<S extends LimitsStore = SyncLimitsStore>(
  options: LimiterOptions<S> = {},
): Limiter<S> {
  checkOptions(LIMITER_OPTIONS, options);
  const merged = mergeLimits(defaultLimits(), options.config);
  // A config's 0.1 `strict` is read as `sliding`; otherwise the same object (one Redis script per config).
  const strict = Object.values(merged.secondary.windowModes).some((mode: string) => mode === 'strict');
  const base = strict ? withWindowModes(merged, merged.secondary.windowModes) : merged;
  const moded = options.windowModes === undefined ? base : withWindowModes(base, options.windowModes);
  const config = options.ipv6Prefix === undefined ? moded : withIpv6Prefix(moded, options.ipv6Prefix);
  const store = (options.store ?? createMemoryStore()) as S;
  const clock = options.clock ?? Date.now;
  const scratch: { -readonly [K in keyof AdmitEvent]: AdmitEvent[K] } = {
    kind: 'admit',
    key: '',
    resource: 'core',
    limit: 0,
    cost: 0,
    content: false,
    graphql: false,
    countsPrimary: true,
    hint: -1,
    settle: undefined,
  };

  const admit = (request: AdmitRequest): Verdict | Promise<Verdict> => {
    const graphql = request.graphql === true;
    let cost = request.cost;
    if (cost === undefined) cost = pointCost(request, config);
    // A cost above the bucket could never be admitted: that is a table mistake, not a limit.
    else {
      const max = graphql ? config.secondary.points.graphql : config.secondary.points.rest;
      if (!Number.isInteger(cost) || cost < 0 || cost > max) {
        throw invalid(`\`cost\` must be an integer in [0, ${max}], got \`${cost}\``);
      }
    }
    const resource = request.resource ?? 'core';
    // Checked against the four names, not by looking it up: `limits['__proto__']` or
    // `limits['toString']` is not undefined, and would skip the primary limit.
    if (resource !== 'core' && resource !== 'search' && resource !== 'graphql' && resource !== 'lfs') {
      throw invalid(`unknown resource \`${String(resource)}\` (valid: ${LIMITS_RESOURCES.join(', ')})`);
    }
    const identity = request.identity as HintedIdentity;
    // Named reads, not `limits[resource]`: a keyed read that sees four names goes megamorphic.
    const limits = identity.limits;
    const limit =
      resource === 'core'
        ? limits.core
        : resource === 'search'
          ? limits.search
          : resource === 'graphql'
            ? limits.graphql
            : limits.lfs;
    if (typeof limit !== 'number') throw invalid(`the identity has no limit for resource \`${resource}\``);
    const hint = identity[ROW_HINT];
    const settle = request.settle === undefined ? undefined : settleFacts(request.settle);
    // A store that cannot settle an admission in the same call: admitted, then completed.
    if (settle !== undefined && store.settlesAdmissions !== true) return admitThenComplete(request, settle);
    if (store.sync) {
      // A synchronous store is done with the event when apply returns: reuse one object.
      const event = scratch;
      event.key = identity.key;
      event.resource = resource;
      event.limit = limit;
      event.cost = cost;
      event.content = request.content === true;
      event.graphql = graphql;
      event.countsPrimary = request.countsPrimary !== false;
      event.hint = hint ?? -1;
      event.settle = settle;
      const verdict = store.apply(event, clock(), config);
      return hint === undefined ? verdict : remember(identity, hint, verdict);
    }
    const event: AdmitEvent = {
      kind: 'admit',
      key: identity.key,
      resource,
      limit,
      cost,
      content: request.content === true,
      graphql,
      countsPrimary: request.countsPrimary !== false,
      hint: hint ?? -1,
      settle,
    };
    const verdict = store.apply(event, clock(), config);
    return hint === undefined ? verdict : rememberLater(identity, hint, verdict);
  };

  // Apart from admit: a closure there would make V8 allocate admit's context on every call.
  const admitThenComplete = (
    request: AdmitRequest,
    settle: { status: number; cpuMs: number },
  ): Verdict | Promise<Verdict> => {
    const settled = (verdict: Verdict): Verdict | Promise<Verdict> => {
      if (verdict.ticket === null) return verdict;
      const done: Verdict | Promise<Verdict> = complete(verdict.ticket, settle);
      return done instanceof Promise ? done.then(() => verdict) : verdict;
    };
    const admitted = admit({ ...request, settle: undefined });
    return admitted instanceof Promise ? admitted.then(settled) : settled(admitted);
  };

  const completion: { -readonly [K in keyof CompleteEvent]: CompleteEvent[K] } = {
    kind: 'complete',
    ticket: { key: '', resource: 'core', graphql: false, limit: 0, countedReset: 0, hint: -1, id: 0 },
    status: 0,
    cpuMs: 0,
  };
  const complete = (ticket: Ticket, facts: CompleteFacts) => {
    const cpuMs = checkCpu(facts.cpuMs);
    const issued = ticket instanceof AdmissionTicket;
    const settled = issued ? (ticket.settledAnswer() as Verdict | Promise<Verdict> | undefined) : undefined;
    if (settled !== undefined) return settled;
    let verdict: Verdict | Promise<Verdict>;
    if (!store.sync) {
      verdict = store.apply({ kind: 'complete', ticket, status: facts.status, cpuMs }, clock(), config);
    } else {
      // As for admissions: a synchronous store is done with the event when apply returns.
      completion.ticket = ticket;
      completion.status = facts.status;
      completion.cpuMs = cpuMs;
      verdict = store.apply(completion, clock(), config);
    }
    if (issued) (ticket as AdmissionTicket).settle(verdict);
    return verdict;
  };

  const release = (ticket: Ticket, cpuMs?: number) => {
    const charge = checkCpu(cpuMs);
    const settled =
      ticket instanceof AdmissionTicket
        ? (ticket.settledAnswer() as Verdict | Promise<Verdict> | undefined)
        : undefined;
    if (settled !== undefined) return settled;
    const verdict = store.apply({ kind: 'release', ticket, cpuMs: charge }, clock(), config);
    if (ticket instanceof AdmissionTicket) ticket.settle(verdict);
    return verdict;
  };

  const status = (identity: LimitsIdentity) => {
    const now = clock();
    const state = store.read(identity.key);
    return state instanceof Promise
      ? state.then((s) => rateLimitBody(s, now, identity.limits, config))
      : rateLimitBody(state, now, identity.limits, config);
  };

  const inspect = (identity: LimitsIdentity) => {
    const now = clock();
    const snapshot = (state: IdentityState | undefined): IdentitySnapshot => ({
      key: identity.key,
      state,
      status: rateLimitBody(state, now, identity.limits, config),
    });
    const state = store.read(identity.key);
    return state instanceof Promise ? state.then(snapshot) : snapshot(state);
  };

  const reset = (identity: LimitsIdentity) => {
    if (typeof store.reset !== 'function')
      throw invalid('the store has no `reset(key)`: give it one to reset identities');
    return store.reset(identity.key);
  };

  return {
    config,
    store,
    inspect: inspect as Limiter<S>['inspect'],
    reset: reset as Limiter<S>['reset'],
    close: async () => {
      await store.close?.();
    },
    identify: (token) => {
      const identity = identityOf(token, config);
      Object.defineProperty(identity, ROW_HINT, { value: -1, writable: true, enumerable: false });
      return identity;
    },
    admit: admit as Limiter<S>['admit'],
    complete: complete as Limiter<S>['complete'],
    release: release as Limiter<S>['release'],
    status: status as Limiter<S>['status'],
  };
}
