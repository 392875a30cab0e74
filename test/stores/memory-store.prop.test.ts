// The memory store under pressure: whatever it evicts, it never holds more than maxIdentities,
// and every answer is `step` applied to the state it held for that identity just before; a ticket
// whose identity was dropped since, or whose lease ran out, settles nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LimitEvent, Ticket } from '../../src/limits/limit-event.js';
import type { LimitsConfig } from '../../src/limits/limits-config.js';
import { step } from '../../src/limits/step.js';
import { createMemoryStore } from '../../src/stores/memory-store.js';
import { admitEvent, T0, tinyConfig as tinySliding } from '../limits/support.js';

const opArb = fc.oneof(
  fc.record({ op: fc.constant('admit' as const), who: fc.nat(7), cost: fc.nat(6), content: fc.boolean() }),
  fc.record({ op: fc.constant('complete' as const), index: fc.nat(20), status: fc.constantFrom(200, 304) }),
  fc.record({
    op: fc.constant('advance' as const),
    ms: fc.oneof(fc.nat(100), fc.nat(70_000), fc.nat(4_000_000)),
  }),
);

/** Token buckets for three rules, a sliding log for the fourth: modes mix. */
const tinyBuckets = {
  ...tinySliding,
  secondary: {
    ...tinySliding.secondary,
    windowModes: {
      rest_points: 'bucket',
      graphql_points: 'bucket',
      content_per_minute: 'bucket',
      content_per_hour: 'sliding',
    },
  },
} as const satisfies LimitsConfig;

describe.each([
  ['sliding logs, the default', tinySliding],
  ['token buckets', tinyBuckets],
])('memory store with eviction (%s)', (_name, tinyConfig: LimitsConfig) => {
  it('stays within maxIdentities and answers as step over the state it held', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(opArb, { maxLength: 200 }), (max, ops) => {
        const store = createMemoryStore({ maxIdentities: max });
        let now = T0;
        const open: { ticket: Ticket; generation: number; leaseEnd: number }[] = [];
        // Bumped each time the store drops an identity's state: its tickets are forgotten with it.
        const generation = new Map<string, number>();
        const keys = Array.from({ length: 8 }, (_, i) => `user:${i}`);
        for (const o of ops) {
          if (o.op === 'advance') {
            now += o.ms;
            continue;
          }
          let event: LimitEvent;
          if (o.op === 'admit') {
            event = admitEvent({ key: `user:${o.who}`, limit: 4, cost: o.cost, content: o.content });
          } else {
            if (open.length === 0) continue;
            const [held] = open.splice(o.index % open.length, 1);
            const { ticket } = held!;
            event = { kind: 'complete', ticket, status: o.status, cpuMs: 0 };
            if ((generation.get(ticket.key) ?? 0) !== held!.generation || now >= held!.leaseEnd) {
              const before = store.read(ticket.key);
              store.apply(event, now, tinyConfig);
              expect(store.read(ticket.key)).toEqual(before);
              continue;
            }
          }
          const key = event.kind === 'admit' ? event.key : event.ticket.key;
          const stored = store.read(key);
          // The store counts in flight as the tickets it holds with a lease running (TicketLedger).
          const live = open.filter(
            (x) => x.ticket.key === key && x.generation === (generation.get(key) ?? 0) && x.leaseEnd > now,
          ).length;
          const before = stored && event.kind === 'admit' ? { ...stored, inFlight: live } : stored;
          const verdict = store.apply(event, now, tinyConfig);
          const expected = step(before, event, now, tinyConfig, verdict.ticket?.id);
          expect({ ...verdict, ticket: null }).toEqual({ ...expected.verdict, ticket: null });
          expect(verdict.headers).toEqual(expected.verdict.headers);
          if (verdict.allowed || event.kind !== 'admit') expect(store.read(key)).toEqual(expected.state);
          for (const k of keys)
            if (store.read(k) === undefined) generation.set(k, (generation.get(k) ?? 0) + 1);
          if (verdict.ticket)
            open.push({
              ticket: verdict.ticket,
              generation: generation.get(key) ?? 0,
              leaseEnd: now + tinyConfig.secondary.concurrency.leaseMs,
            });
          expect(store.size).toBeLessThanOrEqual(max);
        }
      }),
    );
  });
});
