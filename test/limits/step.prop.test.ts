// Properties of step for any interleaving of events: each rule keeps its stated guarantee
// (docs/limits.md), denied requests change nothing, 304 and /rate_limit leave primary counts alone.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMPTY_IDENTITY_STATE, type IdentityState } from '../../src/limits/identity-state.js';
import type { AdmitEvent, Ticket } from '../../src/limits/limit-event.js';
import type { LimitsConfig, LimitsResource } from '../../src/limits/limits-config.js';
import { resourceWindowMs } from '../../src/limits/primary-limit.js';
import { step } from '../../src/limits/step.js';
import type { Verdict } from '../../src/limits/verdict.js';
import { config, T0, tinyConfig } from './support.js';

type Op =
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

const opArb = (maxAdvance: number): fc.Arbitrary<Op> =>
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

const LIMITS: Record<LimitsResource, number> = { core: 4, search: 2, graphql: 4, lfs: 3 };

function admitOf(o: Extract<Op, { op: 'admit' }>, limits: Record<LimitsResource, number>): AdmitEvent {
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

interface Trace {
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
function run(ops: readonly Op[], cfg: LimitsConfig, limits = LIMITS): Trace {
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

const opsArb = (maxAdvance = 20_000) => fc.array(opArb(maxAdvance), { minLength: 1, maxLength: 200 });

/** Checks a token bucket's guarantee: in any [a, b], at most C + C*(b - a)/W is charged. */
function expectBucketGuarantee(
  charges: { at: number; cost: number }[],
  capacity: number,
  windowMs: number,
): void {
  for (let i = 0; i < charges.length; i++) {
    let sum = 0;
    for (let j = i; j < charges.length; j++) {
      sum += charges[j]!.cost;
      const span = charges[j]!.at - charges[i]!.at;
      // Exact form of sum <= C + C*span/W, multiplied by W.
      expect(sum * windowMs).toBeLessThanOrEqual(capacity * windowMs + capacity * span);
    }
  }
}

describe.each([
  ['tiny numbers', tinyConfig],
  ['shipped numbers', config],
])('step guarantees (%s)', (_name, cfg) => {
  it('fixed window: at most the limit counted per window, each admission inside its window', () => {
    fc.assert(
      fc.property(opsArb(), (ops) => {
        const trace = run(ops, cfg);
        const perWindow = new Map<string, number>();
        for (const a of trace.admitted) {
          const ticket = a.verdict.ticket!;
          if (ticket.countedReset === 0) continue;
          const windowMs = resourceWindowMs(ticket.resource, cfg);
          expect(a.at).toBeLessThan(ticket.countedReset);
          expect(a.at).toBeGreaterThanOrEqual(ticket.countedReset - windowMs - 1000);
          const k = `${ticket.resource}@${ticket.countedReset}`;
          perWindow.set(k, (perWindow.get(k) ?? 0) + 1);
        }
        for (const f of trace.finished) {
          if (!f.refunded) continue;
          const k = `${f.ticket.resource}@${f.ticket.countedReset}`;
          perWindow.set(k, (perWindow.get(k) ?? 0) - 1);
        }
        for (const [k, n] of perWindow)
          expect(n, k).toBeLessThanOrEqual(LIMITS[k.split('@')[0] as LimitsResource]);
      }),
    );
  });

  it('token buckets: at most C + C*t/W points in any t ms (REST, GraphQL, content per minute and per hour)', () => {
    fc.assert(
      fc.property(opsArb(), (ops) => {
        const trace = run(ops, cfg);
        const s = cfg.secondary;
        const admitted = trace.admitted.map((a) => ({ at: a.at, e: a.event }));
        expectBucketGuarantee(
          admitted.filter((a) => !a.e.graphql).map((a) => ({ at: a.at, cost: a.e.cost })),
          s.points.rest,
          s.points.windowMs,
        );
        expectBucketGuarantee(
          admitted.filter((a) => a.e.graphql).map((a) => ({ at: a.at, cost: a.e.cost })),
          s.points.graphql,
          s.points.windowMs,
        );
        const content = admitted.filter((a) => a.e.content).map((a) => ({ at: a.at, cost: 1 }));
        expectBucketGuarantee(content, s.content.perMinute, 60_000);
        expectBucketGuarantee(content, s.content.perHour, 3_600_000);
      }),
    );
  });

  it('CPU: a request is admitted only while the CPU charged in every last t ms is below C + C*t/W', () => {
    fc.assert(
      fc.property(opsArb(), (ops) => {
        const trace = run(ops, cfg);
        const s = cfg.secondary.cpu;
        for (const a of trace.admitted) {
          const charges = trace.finished.filter((f) => f.seq < a.seq && f.cpuMs > 0);
          const graphqlCharges = charges.filter((f) => f.ticket.graphql);
          for (const [list, capacity, applies] of [
            [charges, s.totalMs, true],
            [graphqlCharges, s.graphqlMs, a.event.graphql],
          ] as const) {
            if (!applies) continue;
            let sum = 0;
            for (let i = list.length - 1; i >= 0; i--) {
              // What is charged: one request's CPU clamped to the rule's capacity.
              sum += Math.min(list[i]!.cpuMs, capacity);
              const t = a.at - list[i]!.at;
              expect(sum * s.windowMs).toBeLessThan(capacity * s.windowMs + capacity * t);
            }
          }
        }
      }),
    );
  });

  it(`concurrency: never more than ${cfg.secondary.concurrency.limit} requests in flight`, () => {
    fc.assert(
      fc.property(fc.array(opArb(100), { minLength: 1, maxLength: 300 }), (ops) => {
        const trace = run(
          ops.map((o) => (o.op === 'finish' && o.index % 3 !== 0 ? { op: 'advance' as const, ms: 1 } : o)),
          cfg,
        );
        expect(trace.maxOutstanding).toBeLessThanOrEqual(cfg.secondary.concurrency.limit);
        for (const s of trace.states) expect(s.inFlight).toBeLessThanOrEqual(cfg.secondary.concurrency.limit);
      }),
    );
  });

  it('keeps every state field a non-negative integer (buckets never hold more than their capacity)', () => {
    fc.assert(
      fc.property(opsArb(), (ops) => {
        for (const state of run(ops, cfg).states) {
          const { logs, ...numbers } = state;
          for (const value of [...Object.values(numbers), ...(logs ?? []).flat()]) {
            expect(Number.isSafeInteger(value) && value >= 0, JSON.stringify(state)).toBe(true);
          }
        }
      }),
    );
  });

  it('a denied request changes no state', () => {
    fc.assert(
      fc.property(opsArb(), (ops) => {
        const trace = run(ops, cfg);
        for (const d of trace.denied) {
          if (d.before !== undefined) expect(d.after).toBe(d.before);
          expect(d.verdict.ticket).toBeNull();
        }
      }),
    );
  });

  it('a 304 or GET /rate_limit never changes primary counts', () => {
    fc.assert(
      fc.property(
        opsArb(),
        fc.constantFrom<LimitsResource>('core', 'search', 'graphql', 'lfs'),
        fc.boolean(),
        (ops, resource, viaRateLimit) => {
          const { state, now } = run(ops, cfg).final;
          const event = admitOf(
            { op: 'admit', resource, cost: 1, content: false, graphql: false, counts: !viaRateLimit },
            LIMITS,
          );
          const admitted = step(state, event, now, cfg);
          fc.pre(admitted.verdict.allowed);
          const after = viaRateLimit
            ? admitted.state
            : step(
                admitted.state,
                { kind: 'complete', ticket: admitted.verdict.ticket!, status: 304, cpuMs: 0 },
                now,
                cfg,
              ).state;
          const before = state ?? EMPTY_IDENTITY_STATE;
          for (const r of ['core', 'search', 'graphql', 'lfs'] as const) {
            const used = (s: IdentityState) => (s[`${r}Reset`] > now ? s[`${r}Used`] : 0);
            expect(used(after)).toBe(used(before));
          }
        },
      ),
    );
  });
});
