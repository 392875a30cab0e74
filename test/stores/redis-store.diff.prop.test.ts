// The Redis store answers as the memory store does: the same random events, the same injected
// clock, the same verdicts and headers at every step (fast-check commands against a real Redis).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LimitsResource } from '../../src/core/limit-charge.js';
import { defaultLimits } from '../../src/limits/default-limits.js';
import type { AdmitEvent, Ticket } from '../../src/limits/limit-event.js';
import type { LimitsConfig } from '../../src/limits/limits-config.js';
import { createMemoryStore, type MemoryStore } from '../../src/stores/memory-store.js';
import { createRedisStore, type RedisStore } from '../../src/stores/redis-store.js';
import { fcRuns } from '../setup.js';
import { runRedisTests, sharedRedis } from '../support/redis-server.js';
import { seen } from './verdict-seen.js';

const shipped = defaultLimits();
/** Small numbers so random runs reach every rule: primary 5 per 10 s, 3 in flight, points 12 per 6 s, CPU 3 s per 6 s, content 3 per minute and 5 per hour; the default window modes (sliding logs). */
const slidingConfig: LimitsConfig = {
  ...shipped,
  primary: {
    ...shipped.primary,
    windowMs: 10_000,
    resources: {
      search: { windowMs: 5_000, sameAsCore: false, anonymous: 1, authenticated: 2 },
      graphql: { windowMs: 10_000, sameAsCore: true },
      lfs: { windowMs: 3_000, sameAsCore: false, anonymous: 2, authenticated: 3 },
    },
  },
  secondary: {
    ...shipped.secondary,
    concurrency: { limit: 3, leaseMs: 30_000 },
    points: { windowMs: 6_000, rest: 12, graphql: 20 },
    cpu: { windowMs: 6_000, totalMs: 3_000, graphqlMs: 2_000 },
    content: { perMinute: 3, perHour: 5 },
  },
};
/** The same with token buckets for three rules (GraphQL points stay a sliding log: modes mix). */
const bucketConfig: LimitsConfig = {
  ...slidingConfig,
  secondary: {
    ...slidingConfig.secondary,
    windowModes: {
      rest_points: 'bucket',
      graphql_points: 'sliding',
      content_per_minute: 'bucket',
      content_per_hour: 'bucket',
    },
  },
};
let config = slidingConfig;

interface Real {
  memory: MemoryStore;
  redis: RedisStore;
  now: number;
  tickets: [Ticket, Ticket][];
  denied: number;
  run: string;
}
type Model = Record<string, never>;

class Admit implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly who: number,
    readonly resource: LimitsResource,
    readonly cost: number,
    readonly content: boolean,
    readonly graphql: boolean,
    readonly countsPrimary: boolean,
    /** Settled at once (a policy refusal that counts): admission and completion in one call. */
    readonly settle: { readonly status: number; readonly cpuMs: number } | undefined,
  ) {}
  check = () => true;
  async run(_m: Model, r: Real): Promise<void> {
    const event: AdmitEvent = {
      kind: 'admit',
      key: `${r.run}:user${this.who}`,
      resource: this.resource,
      limit: 5,
      cost: this.cost,
      content: this.content,
      graphql: this.graphql,
      countsPrimary: this.countsPrimary,
      ...(this.settle === undefined ? {} : { settle: this.settle }),
    };
    const expected = r.memory.apply(event, r.now, config);
    const actual = await r.redis.apply(event, r.now, config);
    expect(seen(actual)).toEqual(seen(expected));
    if (this.settle === undefined && expected.ticket !== null && actual.ticket !== null)
      r.tickets.push([expected.ticket, actual.ticket]);
    if (!expected.allowed) r.denied++;
  }
  toString = () =>
    `admit(user${this.who}, ${this.resource}, cost ${this.cost}${this.content ? ', content' : ''}${this.graphql ? ', graphql' : ''}${this.countsPrimary ? '' : ', uncounted'}${this.settle === undefined ? '' : `, settled ${this.settle.status} ${this.settle.cpuMs} ms`})`;
}

class Settle implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly pick: number,
    readonly how: 'complete' | 'release',
    readonly status: number,
    readonly cpuMs: number,
    readonly copy: boolean,
  ) {}
  check = () => true;
  async run(_m: Model, r: Real): Promise<void> {
    if (r.tickets.length === 0) return;
    const [memoryTicket, redisTicket] = r.tickets[this.pick % r.tickets.length]!;
    // A Redis ticket is data another instance may settle: a JSON copy of it stands for the ticket,
    // as the memory store's own object does (a copy of that one settles nothing: a handle).
    const mine = memoryTicket;
    const theirs = this.copy ? JSON.parse(JSON.stringify(redisTicket)) : redisTicket;
    const event = (ticket: Ticket) =>
      this.how === 'complete'
        ? ({ kind: 'complete', ticket, status: this.status, cpuMs: this.cpuMs } as const)
        : ({ kind: 'release', ticket, cpuMs: this.cpuMs } as const);
    const expected = r.memory.apply(event(mine), r.now, config);
    const actual = await r.redis.apply(event(theirs), r.now, config);
    expect(seen(actual)).toEqual(seen(expected));
  }
  toString = () =>
    `${this.how}(#${this.pick}, ${this.status}, ${this.cpuMs} ms${this.copy ? ', a copy' : ''})`;
}

class Wait implements fc.AsyncCommand<Model, Real> {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(_m: Model, r: Real): Promise<void> {
    r.now += this.ms;
  }
  toString = () => `wait(${this.ms})`;
}

const commands = [
  fc
    .tuple(
      fc.nat(2),
      fc.constantFrom<LimitsResource>('core', 'core', 'search', 'graphql', 'lfs'),
      fc.integer({ min: 0, max: 6 }),
      fc.boolean(),
      fc.boolean(),
      fc.boolean(),
      fc.option(fc.record({ status: fc.constantFrom(403, 404, 304), cpuMs: fc.nat(4000) }), {
        nil: undefined,
        freq: 4,
      }),
    )
    .map(
      ([who, resource, cost, content, graphql, counts, settle]) =>
        new Admit(who, resource, cost, content, graphql, counts || resource === 'core', settle),
    ),
  fc
    .tuple(
      fc.nat(50),
      fc.constantFrom<'complete' | 'release'>('complete', 'release'),
      fc.constantFrom(200, 304, 500),
      fc.nat(4000),
      fc.boolean(),
    )
    .map(([pick, how, status, cpuMs, copy]) => new Settle(pick, how, status, cpuMs, copy)),
  // Forward only: a store may drop an expired identity at any moment, and a clock stepping back
  // tells a dropped one from a kept one (the core's own tests cover bad clocks).
  fc.oneof(fc.nat(1_500), fc.nat(40_000)).map((ms) => new Wait(ms)),
];

describe.runIf(runRedisTests)('the Redis store against the memory store', () => {
  const redis = sharedRedis();
  let runs = 0;

  it.each([
    ['sliding', slidingConfig],
    ['bucket', bucketConfig],
  ] as const)(
    'gives the same verdict and headers at every step of random event sequences (%s windows)',
    async (_mode, chosen) => {
      config = chosen;
      let steps = 0;
      let allowed = 0;
      let denied = 0;
      await fc.assert(
        fc.asyncProperty(fc.commands(commands, { maxCommands: 80, size: 'large' }), async (cmds) => {
          const real: Real = {
            memory: createMemoryStore(),
            // Answers, not speed: on a loaded machine a call may take longer than the 50 ms default,
            // and the failure mode would answer instead of the script.
            redis: createRedisStore({ client: redis.client, useCallerClock: true, timeoutMs: 5_000 }),
            now: 1_700_000_000_000,
            tickets: [],
            denied: 0,
            run: `run${runs++}`,
          };
          await fc.asyncModelRun(() => ({ model: {}, real }), cmds);
          steps += [...cmds].length;
          allowed += real.tickets.length;
          denied += real.denied;
        }),
        { numRuns: Math.max(300, Math.floor(fcRuns * 0.3)) },
      );
      // The runs reached both answers many times over (a property that admits nothing proves little).
      expect(steps).toBeGreaterThan(3000);
      expect(allowed).toBeGreaterThan(500);
      expect(denied).toBeGreaterThan(100);
    },
    240_000,
  );
});
