// Random event sequences for one identity and a trace of what step answered to each: the
// generators and the runner the step property tests share.
import fc from 'fast-check';
import type { IdentityState } from '../../src/limits/identity-state.js';
import type { AdmitEvent, Ticket } from '../../src/limits/limit-event.js';
import type { LimitsConfig, LimitsResource } from '../../src/limits/limits-config.js';
import { step } from '../../src/limits/step.js';
import type { Verdict } from '../../src/limits/verdict.js';
import { T0 } from './support.js';

export type Op =
  | {
      op: 'admit';
      resource: LimitsResource;
      cost: number;
      content: boolean;
      graphql: boolean;
      counts: boolean;
    }
  | { op: 'finish'; index: number; status: 200 | 304 | 'release'; cpuMs: number }
  | { op: 'advance'; ms: number };

export const opArb = (maxAdvance: number): fc.Arbitrary<Op> =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        op: fc.constant('admit' as const),
        resource: fc.constantFrom<LimitsResource>('core', 'search', 'graphql', 'lfs'),
        cost: fc.nat(8),
        content: fc.boolean(),
        graphql: fc.boolean(),
        counts: fc.oneof(
          { weight: 5, arbitrary: fc.constant(true) },
          { weight: 1, arbitrary: fc.constant(false) },
        ),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('finish' as const),
        index: fc.nat(50),
        status: fc.constantFrom<200 | 304 | 'release'>(200, 304, 'release'),
        cpuMs: fc.oneof(fc.constant(0), fc.nat(2500)),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('advance' as const),
        ms: fc.oneof(fc.nat(50), fc.nat(2_000), fc.nat(maxAdvance)),
      }),
    },
  );

export const LIMITS: Record<LimitsResource, number> = { core: 4, search: 2, graphql: 4, lfs: 3 };

export function admitOf(o: Extract<Op, { op: 'admit' }>, limits: Record<LimitsResource, number>): AdmitEvent {
  return {
    kind: 'admit',
    key: 'user:a',
    resource: o.resource,
    limit: limits[o.resource],
    cost: o.cost,
    content: o.content,
    graphql: o.graphql,
    countsPrimary: o.counts,
  };
}

export interface Trace {
  admitted: {
    seq: number;
    at: number;
    event: AdmitEvent;
    verdict: Verdict;
    before: IdentityState | undefined;
  }[];
  denied: {
    at: number;
    event: AdmitEvent;
    verdict: Verdict;
    before: IdentityState | undefined;
    after: IdentityState;
  }[];
  finished: {
    seq: number;
    at: number;
    ticket: Ticket;
    status: number | 'release';
    cpuMs: number;
    refunded: boolean;
  }[];
  maxOutstanding: number;
  states: IdentityState[];
  final: { state: IdentityState | undefined; now: number };
}

/** Runs `ops` through step for one identity and records what happened. */
export function run(ops: readonly Op[], cfg: LimitsConfig, limits = LIMITS): Trace {
  let state: IdentityState | undefined;
  let now = T0;
  const open: Ticket[] = [];
  const trace: Trace = {
    admitted: [],
    denied: [],
    finished: [],
    maxOutstanding: 0,
    states: [],
    final: { state, now },
  };
  for (const o of ops) {
    if (o.op === 'advance') now += o.ms;
    else if (o.op === 'admit') {
      const event = admitOf(o, limits);
      const before = state;
      const result = step(state, event, now, cfg);
      if (result.verdict.allowed) {
        trace.admitted.push({
          seq: trace.admitted.length + trace.finished.length,
          at: now,
          event,
          verdict: result.verdict,
          before,
        });
        open.push(result.verdict.ticket!);
      } else trace.denied.push({ at: now, event, verdict: result.verdict, before, after: result.state });
      state = result.state;
    } else if (open.length > 0) {
      const [ticket] = open.splice(o.index % open.length, 1);
      const usedBefore = state?.[`${ticket!.resource}Used` as const] ?? 0;
      const event =
        o.status === 'release'
          ? ({ kind: 'release', ticket: ticket!, cpuMs: o.cpuMs } as const)
          : ({ kind: 'complete', ticket: ticket!, status: o.status, cpuMs: o.cpuMs } as const);
      state = step(state, event, now, cfg).state;
      const refunded = state[`${ticket!.resource}Used` as const] < usedBefore;
      trace.finished.push({
        seq: trace.admitted.length + trace.finished.length,
        at: now,
        ticket: ticket!,
        status: o.status,
        cpuMs: o.cpuMs,
        refunded,
      });
    }
    trace.maxOutstanding = Math.max(trace.maxOutstanding, open.length);
    if (state) trace.states.push(state);
  }
  trace.final = { state, now };
  return trace;
}

export const opsArb = (maxAdvance = 20_000) => fc.array(opArb(maxAdvance), { minLength: 1, maxLength: 200 });
