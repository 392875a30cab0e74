// The Redis store writes the sliding log an event charges as the memory store does, entry for
// entry: the points log an admission charges, the CPU logs a completion charges (written straight
// from the stored value when they are held apart: charge_apart). The differential test compares
// verdicts, which a weight off by a little rarely changes; this compares the logs themselves, and
// holds each stored log's sum to its entries.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultLimits } from '../../src/limits/default-limits.js';
import type { AdmitEvent, Ticket } from '../../src/limits/limit-event.js';
import type { LimitsConfig } from '../../src/limits/limits-config.js';
import { createMemoryStore } from '../../src/stores/memory-store.js';
import { storedLogSums } from '../../src/stores/redis-state.js';
import { createRedisStore } from '../../src/stores/redis-store.js';
import { fcRuns } from '../setup.js';
import { runRedisTests, sharedRedis } from '../support/redis-server.js';

const shipped = defaultLimits();
/** Ceilings no run reaches, so every admission is admitted and charges its logs; short windows, so entries leave. */
const config: LimitsConfig = {
  ...shipped,
  secondary: {
    ...shipped.secondary,
    concurrency: { limit: 1_000, leaseMs: 600_000 },
    points: { windowMs: 6_000, rest: 1e9, graphql: 1e9 },
    cpu: { windowMs: 6_000, totalMs: 1e9, graphqlMs: 1e9 },
  },
};
/** LOG_RULES indexes: rest_points, graphql_points, cpu, graphql_cpu. */
const POINTS = [0, 1];
const CPU = [2, 3];

type Step =
  | { kind: 'admit'; graphql: boolean; cost: number }
  | { kind: 'complete'; pick: number; cpuMs: number }
  | { kind: 'wait'; ms: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('admit' as const),
    graphql: fc.boolean(),
    cost: fc.integer({ min: 1, max: 5 }),
  }),
  fc.record({
    kind: fc.constant('complete' as const),
    pick: fc.nat(20),
    cpuMs: fc.integer({ min: 0, max: 2_500 }),
  }),
  fc.record({ kind: fc.constant('wait' as const), ms: fc.oneof(fc.nat(1_200), fc.nat(7_000)) }),
);

describe.runIf(runRedisTests)('the logs the Redis store charges', () => {
  const redis = sharedRedis();
  let runs = 0;

  it('hold the same entries as the memory store after every admission and completion', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 60 }), async (steps) => {
        const memory = createMemoryStore();
        const store = createRedisStore({ client: redis.client, useCallerClock: true, timeoutMs: 5_000 });
        const key = `charged${runs++}:user`;
        const tickets: [Ticket, Ticket, boolean][] = [];
        let now = 1_700_000_000_000;
        for (const s of steps) {
          if (s.kind === 'wait') {
            now += s.ms;
            continue;
          }
          let charged: number[];
          if (s.kind === 'admit') {
            const event: AdmitEvent = {
              kind: 'admit',
              key,
              resource: s.graphql ? 'graphql' : 'core',
              limit: 1e9,
              cost: s.cost,
              content: false,
              graphql: s.graphql,
              countsPrimary: true,
            };
            const [a, b] = [memory.apply(event, now, config), await store.apply(event, now, config)];
            tickets.push([a.ticket!, b.ticket!, s.graphql]);
            charged = [POINTS[s.graphql ? 1 : 0]!];
          } else {
            if (tickets.length === 0) continue;
            const [mine, theirs, graphql] = tickets.splice(s.pick % tickets.length, 1)[0]!;
            memory.apply({ kind: 'complete', ticket: mine, status: 200, cpuMs: s.cpuMs }, now, config);
            await store.apply({ kind: 'complete', ticket: theirs, status: 200, cpuMs: s.cpuMs }, now, config);
            // A completion of 0 ms charges no CPU log. The store then writes a CPU log it loaded as
            // it read it, entries that left their window included (save_logs: "read, not
            // written"), where the memory store drops them; what either holds inside the window is
            // the same, which the differential tests hold verdict for verdict.
            charged = s.cpuMs === 0 ? [] : graphql ? CPU : [CPU[0]!];
          }
          const [expected, actual] = [memory.read(key), await store.read(key)];
          for (const log of charged) expect(actual?.logs?.[log]).toEqual(expected?.logs?.[log]);
          expect(actual?.inFlight).toBe(expected?.inFlight);
          // Each log held apart stores the sum of its entries (the script reads it for them).
          const raw = await redis.client.getBuffer(store.keysOf(key)[0]);
          const sums = storedLogSums(raw!, config);
          sums.forEach((sum, log) => {
            if (sum === undefined) return;
            const weights = actual!.logs![log]!.filter((_, k) => k % 2 === 1);
            expect(sum).toBe(weights.reduce((a, b) => a + b, 0));
          });
        }
      }),
      {
        numRuns: Math.max(100, Math.floor(fcRuns * 0.5)),
        // Found by CI (FC_SEED=1079933981): a CPU log an admission left unloaded, with an entry
        // gone from its window, then a 0 ms completion. Always run, whatever the seed.
        examples: [
          [
            [
              { kind: 'admit', graphql: false, cost: 1 },
              { kind: 'complete', pick: 0, cpuMs: 1 },
              { kind: 'wait', ms: 3114 },
              { kind: 'admit', graphql: false, cost: 1 },
              { kind: 'complete', pick: 0, cpuMs: 1 },
              { kind: 'wait', ms: 3886 },
              { kind: 'admit', graphql: false, cost: 1 },
              { kind: 'complete', pick: 0, cpuMs: 0 },
            ],
          ],
        ],
      },
    );
  }, 120_000);
});
