// Properties of step for any interleaving of events: each rule keeps its stated guarantee
// (docs/limits.md), denied requests change nothing, 304 and /rate_limit leave primary counts alone.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMPTY_IDENTITY_STATE, type IdentityState } from '../../src/limits/identity-state.js';
import type { LimitsResource } from '../../src/limits/limits-config.js';
import { resourceWindowMs } from '../../src/limits/primary-limit.js';
import { step } from '../../src/limits/step.js';
import { admitOf, LIMITS, opArb, opsArb, run } from './step-trace.js';
import { config, tinyConfig } from './support.js';

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
