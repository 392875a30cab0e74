// The calls of one turn go to Redis as one FCALL of the library's batch function: each event still
// answers as it would alone (the memory store's verdicts, in call order), an event that fails
// fails alone, and a server without functions answers each by its script.
import fc from 'fast-check';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { LimitsResource } from '../../src/core/limit-charge.js';
import type { LimitEvent, Ticket } from '../../src/limits/limit-event.js';
import { createMemoryStore } from '../../src/stores/memory-store.js';
import { createLimitsCaller } from '../../src/stores/redis-caller.js';
import type { ScriptAnswer } from '../../src/stores/redis-protocol.js';
import { admitArgs } from '../../src/stores/redis-protocol.js';
import { createRedisStore } from '../../src/stores/redis-store.js';
import { admitEvent, config, T0 } from '../limits/support.js';
import { fcRuns } from '../setup.js';
import { runRedisTests, sharedRedis, startRedis } from '../support/redis-server.js';
import { seen } from './verdict-seen.js';

/** The FCALLs Redis has run (INFO commandstats). */
async function fcalls(client: Redis): Promise<number> {
  const info = await client.info('commandstats');
  return Number(/cmdstat_fcall:calls=(\d+)/.exec(info)?.[1] ?? 0);
}

/** One event of a burst: an admission, or the completion of a ticket an earlier burst got. */
const step = fc.oneof(
  fc.record({
    who: fc.nat(1),
    resource: fc.constantFrom<LimitsResource>('core', 'core', 'search'),
    cost: fc.integer({ min: 0, max: 3 }),
    content: fc.boolean(),
  }),
  fc.record({ pick: fc.nat(40), status: fc.constantFrom(200, 304), cpuMs: fc.nat(2000) }),
);

describe.runIf(runRedisTests)('the Redis store, the calls of one turn in one batch call', () => {
  const redis = sharedRedis();
  let runs = 0;

  it('answers each event of a burst as the memory store does in call order, one FCALL per 16 events', async () => {
    let events = 0;
    let batched = 0;
    let denied = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.array(step, { minLength: 1, maxLength: 40, size: 'max' }), fc.nat(3_000)), {
          minLength: 1,
          maxLength: 6,
        }),
        async (bursts) => {
          const run = `batch${runs++}`;
          const memory = createMemoryStore();
          const store = createRedisStore({ client: redis.client, useCallerClock: true, timeoutMs: 5_000 });
          let now = T0;
          // Warm: the server's clock offset known, so calls go through the turn's queue.
          await store.apply(admitEvent({ key: `${run}:warm` }), now, config);
          memory.apply(admitEvent({ key: `${run}:warm` }), now, config);
          const tickets: [Ticket, Ticket][] = [];
          for (const [burst, wait] of bursts) {
            now += wait;
            const made: [LimitEvent, LimitEvent][] = [];
            for (const s of burst) {
              if ('who' in s) {
                const key = `${run}:user${s.who}`;
                const event = admitEvent({
                  key,
                  limit: 3,
                  resource: s.resource,
                  cost: s.cost,
                  content: s.content,
                });
                made.push([event, event]);
              } else if (tickets.length > 0) {
                const [mine, theirs] = tickets.splice(s.pick % tickets.length, 1)[0]!;
                const settle = (ticket: Ticket) =>
                  ({ kind: 'complete', ticket, status: s.status, cpuMs: s.cpuMs }) as const;
                made.push([settle(mine), settle(theirs)]);
              }
            }
            const before = await fcalls(redis.client);
            const actual = await Promise.all(made.map(([, event]) => store.apply(event, now, config)));
            const after = await fcalls(redis.client);
            const expected = made.map(([event]) => memory.apply(event, now, config));
            expect(actual.map(seen)).toEqual(expected.map(seen));
            expect(after - before).toBe(Math.ceil(made.length / 16));
            for (let i = 0; i < made.length; i++)
              if (made[i]![0].kind === 'admit' && expected[i]!.ticket !== null && actual[i]!.ticket !== null)
                tickets.push([expected[i]!.ticket!, actual[i]!.ticket!]);
            events += made.length;
            denied += expected.filter((v) => !v.allowed).length;
            if (made.length > 1) batched++;
          }
        },
      ),
      { numRuns: Math.max(200, Math.floor(fcRuns * 0.3)) },
    );
    // The runs reached batches, and both answers, many times over.
    console.log(`batches: ${events} events, ${batched} bursts of more than one, ${denied} refused`);
    expect(events).toBeGreaterThan(2000);
    expect(batched).toBeGreaterThan(300);
    expect(denied).toBeGreaterThan(200);
  }, 240_000);

  it('fails only the event whose call failed: those before and after it in the batch still answer', async () => {
    const caller = createLimitsCaller(redis.client);
    const keysOf = createRedisStore({ client: redis.client, prefix: 'batch-err:' }).keysOf;
    await redis.client.rpush(keysOf('user:list')[0], 'not a string value');
    const args = (key: string) => admitArgs(admitEvent({ key, limit: 5 }), T0, undefined);
    // The library loaded, so the batch below is one FCALL.
    await caller.call(config, keysOf('user:warm'), args('user:warm'));
    const before = await fcalls(redis.client);
    const answers: Promise<ScriptAnswer>[] = [];
    caller.collect(() => {
      for (const who of ['user:a', 'user:list', 'user:b'])
        answers.push(caller.call(config, keysOf(who), args(who)));
    });
    const [a, list, b] = await Promise.allSettled(answers);
    expect(await fcalls(redis.client)).toBe(before + 1);
    // An admitted answer: 1, then the window's used count (redis-protocol.ts: admitVerdict).
    expect(a).toMatchObject({
      status: 'fulfilled',
      value: [1, 1, expect.any(Number), expect.any(Number), expect.any(Number)],
    });
    expect(list).toMatchObject({
      status: 'rejected',
      reason: { message: expect.stringMatching(/WRONGTYPE/) },
    });
    expect(b).toMatchObject({
      status: 'fulfilled',
      value: [1, 1, expect.any(Number), expect.any(Number), expect.any(Number)],
    });
  });

  it('keeps call order around a call the batch function cannot carry (it goes alone, in its place)', async () => {
    const caller = createLimitsCaller(redis.client);
    const keysOf = createRedisStore({ client: redis.client, prefix: 'batch-odd:' }).keysOf;
    const args = () => admitArgs(admitEvent({ key: 'user:odd', limit: 5 }), T0, undefined);
    await caller.call(
      config,
      keysOf('user:warm'),
      admitArgs(admitEvent({ key: 'user:warm' }), T0, undefined),
    );
    const answers: Promise<ScriptAnswer>[] = [];
    caller.collect(() => {
      answers.push(caller.call(config, keysOf('user:odd'), args()));
      // Two arguments: not one event of a batch (the script reads only the first).
      answers.push(caller.call(config, keysOf('user:odd'), [...args(), 'extra']));
      answers.push(caller.call(config, keysOf('user:odd'), args()));
      answers.push(caller.call(config, keysOf('user:odd'), args()));
    });
    // The window's used count after each: the calls ran in the order they were made.
    expect((await Promise.all(answers)).map((answer) => answer[1])).toEqual([1, 2, 3, 4]);
  });

  it('answers each call of a batch by its script on a server without functions', async () => {
    const plain = await startRedis(['--rename-command', 'FUNCTION', '', '--rename-command', 'FCALL', '']);
    const { Redis: Client } = await import('ioredis');
    const client = new Client({ port: plain.port, host: '127.0.0.1' });
    try {
      const caller = createLimitsCaller(client);
      const keysOf = createRedisStore({ client, prefix: 'batch-old:' }).keysOf;
      const answers: Promise<ScriptAnswer>[] = [];
      caller.collect(() => {
        for (const who of ['user:a', 'user:a', 'user:b'])
          answers.push(
            caller.call(config, keysOf(who), admitArgs(admitEvent({ key: who, limit: 5 }), T0, undefined)),
          );
      });
      // Admitted, and the window's used count: the second call on user:a saw the first's.
      const used = (await Promise.all(answers)).map((answer) => [answer[0], answer[1]]);
      expect(used).toEqual([
        [1, 1],
        [1, 2],
        [1, 1],
      ]);
      expect(caller.mode).toBe('script');
    } finally {
      client.disconnect();
      await plain.stop();
    }
  });
});
