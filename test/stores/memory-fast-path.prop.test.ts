// The memory store's fused admission (memory-fast-path.ts) answers and writes exactly as the kernel
// (stepInto): the same random histories through two limiters over two memory stores, one with the
// fused path and one without, give equal verdicts (every field, headers, ticket) and equal stored
// states of every identity after every step.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../src/limiter/create-limiter.js';
import type { LimitsCaller, LimitsIdentity } from '../../src/limits/identity.js';
import type { Ticket } from '../../src/limits/limit-event.js';
import type { LimitsConfig } from '../../src/limits/limits-config.js';
import type { Verdict } from '../../src/limits/verdict.js';
import { useFastPath } from '../../src/stores/memory-fast-path.js';
import { createMemoryStore } from '../../src/stores/memory-store.js';
import { config as shipped, T0, tinyConfig } from '../limits/support.js';

const CALLERS: readonly LimitsCaller[] = [
  { kind: 'classic', user: 'octocat' },
  { kind: 'fine-grained', user: 'hubot' },
  { kind: 'anonymous', ip: '203.0.113.7' },
  { kind: 'app-installation', installation: '42', repositoriesCount: 30, usersCount: 5 },
  { kind: 'workflow', repository: 'org/repo' },
];

const admitArb = fc.record({
  op: fc.constant('admit' as const),
  who: fc.nat(CALLERS.length - 1),
  resource: fc.constantFrom('core', 'core', 'search', 'graphql', 'lfs'),
  graphql: fc.boolean(),
  cost: fc.option(fc.nat(12), { nil: undefined }),
  content: fc.boolean(),
  countsPrimary: fc.constantFrom(true, true, true, false),
});
const opArb = fc.oneof(
  { weight: 5, arbitrary: admitArb },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constantFrom('complete' as const, 'release' as const),
      index: fc.nat(40),
      status: fc.constantFrom(200, 201, 304, 500),
      cpuMs: fc.oneof(fc.nat(50), fc.nat(2_500), fc.constant(0.5)),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('clock' as const),
      // Mostly forward (windows roll, logs empty), sometimes back (a stepped-back clock).
      ms: fc.oneof(
        fc.nat(50),
        fc.nat(7_000),
        fc.nat(70_000),
        fc.nat(4_000_000),
        fc.integer({ min: -3_000, max: -1 }),
      ),
    }),
  },
);

/** A verdict as plain data: every field, the headers and the ticket's fields (not its store stamp). */
function plain(verdict: Verdict) {
  const ticket = verdict.ticket;
  return {
    ...verdict,
    headers: { ...verdict.headers },
    ticket: ticket === null ? null : { ...ticket },
  };
}

/** Tiny primary windows behind roomy secondary rules: the primary limit is the one reached. */
const tinyPrimary: LimitsConfig = {
  ...tinyConfig,
  secondary: {
    ...tinyConfig.secondary,
    concurrency: { limit: 50, leaseMs: 30_000 },
    points: { windowMs: 6_000, rest: 900, graphql: 900 },
    content: { perMinute: 80, perHour: 500 },
  },
};

describe.each([
  ['the shipped limits', shipped],
  ['tiny limits (every ceiling reachable)', tinyConfig],
  ['tiny primary limits', tinyPrimary],
])('the fused admission equals the kernel (%s)', (_name, config: LimitsConfig) => {
  it('gives equal verdicts and equal stored states after every step', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 6 }),
        fc.array(opArb, { minLength: 20, maxLength: 200, size: 'max' }),
        (max, ops) => {
          let now = T0;
          const clock = () => now;
          const make = () =>
            createLimiter({ store: createMemoryStore({ maxIdentities: max }), clock, config });
          const fast = make();
          const slow = make();
          const fastIds = CALLERS.map((c) => fast.identify(c));
          const slowIds = CALLERS.map((c) => slow.identify(c));
          const open: [Ticket, Ticket][] = [];
          const both = (run: (limiter: typeof fast, ids: LimitsIdentity[]) => Verdict): void => {
            useFastPath(false);
            const expected = run(slow, slowIds);
            useFastPath(true);
            const got = run(fast, fastIds);
            expect(plain(got)).toEqual(plain(expected));
            if (got.ticket !== null && expected.ticket !== null) open.push([got.ticket, expected.ticket]);
          };
          try {
            for (const o of ops) {
              if (o.op === 'clock') now += o.ms;
              else if (o.op === 'admit') {
                both((limiter, ids) =>
                  limiter.admit({
                    identity: ids[o.who]!,
                    resource: o.graphql ? 'graphql' : o.resource,
                    graphql: o.graphql,
                    method: o.graphql ? 'POST' : 'GET',
                    ...(o.cost === undefined ? {} : { cost: o.cost }),
                    content: o.content,
                    countsPrimary: o.countsPrimary,
                  }),
                );
              } else {
                if (open.length === 0) continue;
                const [pair] = open.splice(o.index % open.length, 1);
                const [mine, theirs] = pair!;
                const facts = { status: o.status, cpuMs: o.cpuMs };
                useFastPath(false);
                const expected =
                  o.op === 'complete' ? slow.complete(theirs, facts) : slow.release(theirs, o.cpuMs);
                useFastPath(true);
                const got = o.op === 'complete' ? fast.complete(mine, facts) : fast.release(mine, o.cpuMs);
                expect(plain(got)).toEqual(plain(expected));
              }
              for (let i = 0; i < CALLERS.length; i++)
                expect(fast.inspect(fastIds[i]!)).toEqual(slow.inspect(slowIds[i]!));
            }
          } finally {
            useFastPath(true);
          }
        },
      ),
    );
  });
});
