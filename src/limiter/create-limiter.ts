/** The limiter the middleware and the simulator share: `admit` and `complete` over a store. */
import { checkOptions } from '../core/check-options.js';
import type { LimitCharge, LimitsResource } from '../core/limit-charge.js';
import { defaultLimits } from '../limits/default-limits.js';
import { identityOf, type LimitsIdentity } from '../limits/identity.js';
import type { IdentityState } from '../limits/identity-state.js';
import { AdmissionTicket, type AdmitEvent, type CompleteEvent, type Ticket } from '../limits/limit-event.js';
import type { AsyncLimitsStore, LimitsStore, SyncLimitsStore } from '../limits/limits-store.js';
import { pointCost } from '../limits/point-cost.js';
import { rateLimitBody } from '../limits/rate-limit-body.js';
import type { Verdict } from '../limits/verdict.js';
import { withWindowModes } from '../limits/with-window-modes.js';
import { createMemoryStore } from '../stores/memory-store.js';
import { applyingNow, promised } from './apply-now.js';
import type { AdmitRequest, CompleteFacts, IdentitySnapshot, Limiter, LimiterOptions } from './limiter.js';
import {
  checkCpu,
  checkedCost,
  checkedResource,
  checkedStatus,
  invalid,
  settleFacts,
  withIpv6Prefix,
} from './limiter-inputs.js';
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

/** `remember` once an asynchronous store answers (a function apart: see completeOnce). */
function rememberLater(identity: HintedIdentity, hint: number, verdict: Promise<Verdict>): Promise<Verdict> {
  return verdict.then((v) => remember(identity, hint, v));
}

// Limiters createLimiter made: they take every call form (see Limiter.admit and complete).
const MADE_HERE = new WeakSet<object>();

/**
 * Whether `limiter` is one `createLimiter` made, so it takes the positional call forms; a wrapper or
 * a class written elsewhere may take only the object forms.
 * @example
 * import { createLimiter } from 'tollgate';
 * import { takesCallForms } from './create-limiter.js';
 * takesCallForms(createLimiter()); // true
 */
export function takesCallForms(limiter: object): boolean {
  return MADE_HERE.has(limiter);
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
export function createLimiter(options?: LimiterOptions<SyncLimitsStore>): Limiter<SyncLimitsStore>;
// An asynchronous store written inline (`{ sync: false, apply: async (event) => ... }`): its methods'
// parameters are typed by this overload, where one generic signature inferred the default.
export function createLimiter(options: LimiterOptions<AsyncLimitsStore>): Limiter<AsyncLimitsStore>;
export function createLimiter<S extends LimitsStore>(options: LimiterOptions<S>): Limiter<S>;
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
  // A synchronous store's apply at the clock's reading (for the memory store, handed over in memory).
  const applyNow = store.sync ? applyingNow(store as SyncLimitsStore, clock, config) : null;
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

  // Both call forms end here: the event's facts, checked, then one store call.
  const charged = (
    identity: HintedIdentity,
    resource: LimitsResource,
    cost: number,
    content: boolean,
    graphql: boolean,
    countsPrimary: boolean,
    given: CompleteFacts | undefined,
  ): Verdict | Promise<Verdict> => {
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
    const settle = given === undefined ? undefined : settleFacts(given);
    // A store that cannot settle an admission in the same call: admitted, then completed.
    if (settle !== undefined && store.settlesAdmissions !== true)
      return completeOnce(
        charged(identity, resource, cost, content, graphql, countsPrimary, undefined),
        settle,
      );
    const hint = identity[ROW_HINT];
    if (store.sync) {
      // A synchronous store is done with the event when apply returns: reuse one object.
      const event = scratch;
      event.key = identity.key;
      event.resource = resource;
      event.limit = limit;
      event.cost = cost;
      event.content = content;
      event.graphql = graphql;
      event.countsPrimary = countsPrimary;
      event.hint = hint ?? -1;
      event.settle = settle;
      const verdict = applyNow!(event);
      return hint === undefined ? verdict : remember(identity, hint, verdict);
    }
    const event: AdmitEvent = {
      kind: 'admit',
      key: identity.key,
      resource,
      limit,
      cost,
      content,
      graphql,
      countsPrimary,
      hint: hint ?? -1,
      settle,
    };
    const verdict = promised(store.apply(event, clock(), config));
    return hint === undefined ? verdict : rememberLater(identity, hint, verdict);
  };

  // Two forms (see Limiter.admit): an endpoint's charge as it is, or a request object.
  const admit = (
    first: AdmitRequest | LimitsIdentity,
    charge?: LimitCharge,
    settle?: CompleteFacts,
  ): Verdict | Promise<Verdict> => {
    if (charge !== undefined) {
      if (charge === null || typeof charge !== 'object')
        throw invalid(`\`charge\` must be an endpoint's charge object, got \`${String(charge)}\``);
      // Checked in the object form's order: cost, resource, the identity's limit, then settle.
      const cost = checkedCost(charge.cost, false, config);
      return charged(
        first as HintedIdentity,
        checkedResource(charge.resource),
        cost,
        charge.content === true,
        false,
        charge.countsPrimary !== false,
        settle,
      );
    }
    const request = first as AdmitRequest;
    const graphql = request.graphql === true;
    const cost =
      request.cost === undefined ? pointCost(request, config) : checkedCost(request.cost, graphql, config);
    return charged(
      request.identity as HintedIdentity,
      checkedResource(request.resource ?? 'core'),
      cost,
      request.content === true,
      graphql,
      request.countsPrimary !== false,
      request.settle,
    );
  };

  // The admission `admitted`, completed with `settle` (for a store that cannot settle in the same
  // call). Apart from admit: a closure there would make V8 allocate admit's context on every call.
  const completeOnce = (
    admitted: Verdict | Promise<Verdict>,
    settle: { status: number; cpuMs: number },
  ): Verdict | Promise<Verdict> => {
    const settled = (verdict: Verdict): Verdict | Promise<Verdict> => {
      if (verdict.ticket === null) return verdict;
      const done: Verdict | Promise<Verdict> = complete(verdict.ticket, settle.status, settle.cpuMs);
      return done instanceof Promise ? done.then(() => verdict) : verdict;
    };
    return admitted instanceof Promise ? admitted.then(settled) : settled(admitted);
  };

  const completion: { -readonly [K in keyof CompleteEvent]: CompleteEvent[K] } = {
    kind: 'complete',
    ticket: { key: '', resource: 'core', graphql: false, limit: 0, countedReset: 0, hint: -1, id: 0 },
    status: 0,
    cpuMs: 0,
  };
  // Two forms (see Limiter.complete): a status and CPU as they are, or a facts object.
  const complete = (ticket: Ticket, facts: CompleteFacts | number, cpu?: number) => {
    const status = checkedStatus(typeof facts === 'number' ? facts : facts?.status, 'status');
    const cpuMs = checkCpu(typeof facts === 'number' ? cpu : facts.cpuMs);
    const issued = ticket instanceof AdmissionTicket;
    const settled = issued ? (ticket.settledAnswer() as Verdict | Promise<Verdict> | undefined) : undefined;
    if (settled !== undefined) return settled;
    let verdict: Verdict | Promise<Verdict>;
    if (!store.sync) {
      verdict = promised(store.apply({ kind: 'complete', ticket, status, cpuMs }, clock(), config));
    } else {
      // As for admissions: a synchronous store is done with the event when apply returns.
      completion.ticket = ticket;
      completion.status = status;
      completion.cpuMs = cpuMs;
      verdict = applyNow!(completion);
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
    const event = { kind: 'release', ticket, cpuMs: charge } as const;
    const verdict = store.sync ? applyNow!(event) : promised(store.apply(event, clock(), config));
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

  const limiter: Limiter<S> = {
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
  MADE_HERE.add(limiter);
  return limiter;
}
