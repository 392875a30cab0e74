// How the store's calls reach Redis: FCALL of a function library loaded once (Redis 7), EVALSHA
// where functions are missing (a server without the commands, as Redis 6) or refused (ACL); the
// library reloaded after FUNCTION FLUSH; the same answers either way.
import { Redis, type RedisOptions } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LimitEvent } from '../../src/limits/limit-event.js';
import type { LimitsConfig, WindowMode } from '../../src/limits/limits-config.js';
import type { Verdict } from '../../src/limits/verdict.js';
import { createLimitsCaller } from '../../src/stores/redis-caller.js';
import { admitArgs } from '../../src/stores/redis-protocol.js';
import { limitsLibrary, limitsScript } from '../../src/stores/redis-script.js';
import { createRedisStore, type RedisClientLike } from '../../src/stores/redis-store.js';
import { admitEvent, config, T0 } from '../limits/support.js';
import {
  type RunningRedis,
  requireRedis,
  runRedisTests,
  sharedRedis,
  startRedis,
} from '../support/redis-server.js';

/** The client's calls by name, from INFO commandstats (`function|load` for FUNCTION LOAD). */
async function calls(client: Redis): Promise<Record<string, number>> {
  const info = await client.info('commandstats');
  return Object.fromEntries(
    [...info.matchAll(/cmdstat_([\w|]+):calls=(\d+)/g)].map((m) => [m[1]!, Number(m[2])]),
  );
}

/** The client without its function commands: what a store sees of a client that has none. */
function scriptsOnly(client: Redis): RedisClientLike {
  return {
    get status() {
      return client.status;
    },
    // Every command but FUNCTION (the store calls FCALL only once it may load its library).
    callBuffer: (command, ...args) => client.callBuffer(command, ...args),
    getBuffer: (key) => client.getBuffer(key),
    del: (...keys) => client.del(...keys),
  };
}

/** Admits, settles and refuses along one identity; every verdict, tickets as their ids. */
async function walk(client: RedisClientLike, prefix: string): Promise<unknown[]> {
  const store = createRedisStore({ client, prefix, useCallerClock: true, timeoutMs: 2_000 });
  const seen: Verdict[] = [];
  const apply = async (event: LimitEvent, now: number) => {
    const verdict = await store.apply(event, now, config);
    seen.push(verdict);
    return verdict;
  };
  const key = 'user:caller';
  const first = await apply(admitEvent({ key, limit: 3 }), T0);
  await apply(admitEvent({ key, limit: 3, content: true }), T0 + 5);
  await apply({ kind: 'complete', ticket: first.ticket!, status: 304, cpuMs: 40 }, T0 + 9);
  const search = await apply(admitEvent({ key, resource: 'search', limit: 30 }), T0 + 20);
  await apply({ kind: 'release', ticket: search.ticket!, cpuMs: 2 }, T0 + 30);
  await apply(admitEvent({ key, limit: 3, settle: { status: 403, cpuMs: 1 } }), T0 + 40);
  await apply(admitEvent({ key, limit: 3 }), T0 + 50);
  await apply(admitEvent({ key, limit: 3 }), T0 + 60); // over the primary limit: refused
  // Through JSON, not a spread: a verdict's constant fields live on its prototype (see verdict-objects.ts).
  return seen.map((v) => ({ ...JSON.parse(JSON.stringify(v)), ticket: v.ticket?.id ?? null }));
}

describe.runIf(runRedisTests)('the Redis store, by FCALL and by EVALSHA', () => {
  const redis = sharedRedis();

  it('calls its function library on Redis 7, loaded once however many calls wait for it', async () => {
    await redis.client.function('FLUSH');
    await redis.client.config('RESETSTAT');
    const store = createRedisStore({ client: redis.client, prefix: 'fn:', timeoutMs: 2_000 });
    const verdicts = await Promise.all(
      Array.from({ length: 40 }, (_, i) => store.apply(admitEvent({ key: `user:fn${i % 4}` }), T0, config)),
    );
    expect(verdicts.every((v) => v.allowed)).toBe(true);
    const counted = await calls(redis.client);
    expect(counted['function|load']).toBe(1);
    expect(counted.evalsha ?? 0).toBe(0);
    expect(counted.eval ?? 0).toBe(0);
    // 40 calls made together: three batch calls (16, 16, 8), each refused once at most while the
    // library was not loaded yet.
    expect(counted.fcall).toBeGreaterThanOrEqual(3);
    expect(counted.fcall).toBeLessThanOrEqual(6);
  });

  it('gives the same answers by EVALSHA as by FCALL', async () => {
    const byFunction = await walk(redis.client, 'same-fn:');
    const before = await calls(redis.client);
    const byScript = await walk(scriptsOnly(redis.client), 'same-script:');
    const after = await calls(redis.client);
    expect(byScript).toEqual(byFunction);
    expect(byFunction.length).toBe(8);
    // The second walk went by script only.
    expect((after.evalsha ?? 0) + (after.eval ?? 0)).toBeGreaterThan(
      (before.evalsha ?? 0) + (before.eval ?? 0),
    );
    expect(after.fcall).toBe(before.fcall);
  });

  it('loads the library again after FUNCTION FLUSH, keeping the identity state', async () => {
    const store = createRedisStore({
      client: redis.client,
      prefix: 'flush:',
      useCallerClock: true,
      timeoutMs: 2_000,
    });
    const key = 'user:flush';
    expect((await store.apply(admitEvent({ key, limit: 5 }), T0, config)).remaining).toBe(4);
    await redis.client.function('FLUSH');
    expect(await redis.client.function('LIST')).toEqual([]);
    expect((await store.apply(admitEvent({ key, limit: 5 }), T0 + 1, config)).remaining).toBe(3);
    expect(await redis.client.function('LIST')).toHaveLength(1);
  });

  it('loads its code in every window mode, as a library and as a script (Lua 5.1: at most 60 upvalues a function)', async () => {
    const modes: WindowMode[] = ['bucket', 'sliding'];
    for (const rest_points of modes)
      for (const graphql_points of modes)
        for (const content_per_minute of modes)
          for (const content_per_hour of modes) {
            const windowModes = { rest_points, graphql_points, content_per_minute, content_per_hour };
            const chosen: LimitsConfig = { ...config, secondary: { ...config.secondary, windowModes } };
            await redis.client.function('LOAD', 'REPLACE', limitsLibrary(chosen, 'tollgate_modes'));
            await redis.client.script('LOAD', limitsScript(chosen));
            const store = createRedisStore({ client: redis.client, prefix: 'modes:', useCallerClock: true });
            const verdict = await store.apply(admitEvent({ key: 'user:modes', content: true }), T0, chosen);
            expect(verdict.degraded).toBeUndefined();
            expect(verdict.allowed).toBe(true);
            await store.reset('user:modes');
          }
    await redis.client.function('DELETE', 'tollgate_modes');
  });

  it('keeps FCALL for errors of its own (a wrong type at the key is thrown, not a reason for scripts)', async () => {
    const caller = createLimitsCaller(redis.client);
    const keys = createRedisStore({ client: redis.client, prefix: 'wrong:' }).keysOf('user:x');
    await redis.client.rpush(keys[0], 'not a string value');
    await expect(
      caller.call(config, keys, admitArgs(admitEvent({ key: 'user:x', limit: 5 }), undefined, undefined)),
    ).rejects.toThrow(/WRONGTYPE/);
    expect(caller.mode).toBe('function');
  });
});

describe.runIf(runRedisTests)('the Redis store where functions are missing or refused', () => {
  let plain: RunningRedis | undefined;
  const clients: Redis[] = [];
  beforeAll(async () => {
    requireRedis();
    // No FUNCTION and no FCALL command: what a Redis 6 server answers.
    plain = await startRedis(['--rename-command', 'FUNCTION', '', '--rename-command', 'FCALL', '']);
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await plain?.stop();
  });
  const connect = (options: RedisOptions) => {
    const client = new Redis(options);
    clients.push(client);
    return client;
  };

  it('falls back to EVALSHA on a server without functions, for good', async () => {
    const client = connect({ port: plain!.port, host: '127.0.0.1' });
    const caller = createLimitsCaller(client);
    expect(caller.mode).toBe('function');
    const keys = createRedisStore({ client, prefix: 'old:' }).keysOf('user:old');
    const answer = await caller.call(
      config,
      keys,
      admitArgs(admitEvent({ key: 'user:old', limit: 5 }), T0, undefined),
    );
    expect(answer[0]).toBe(1);
    expect(caller.mode).toBe('script');
    const byScript = await walk(client, 'old-walk:');
    expect(byScript[0]).toMatchObject({ allowed: true, remaining: 2 });
    expect((await calls(client)).evalsha).toBeGreaterThan(0);
  });

  it('falls back to EVALSHA for a user the ACL refuses functions', async () => {
    // The ACL names commands, not renamed ones: a server of its own that has FUNCTION.
    const server = await startRedis();
    try {
      const root = connect({ port: server.port, host: '127.0.0.1' });
      await root.acl('SETUSER', 'scripts', 'on', '>secret', '~*', '&*', '+@all', '-function', '-fcall');
      const limited = connect({
        port: server.port,
        host: '127.0.0.1',
        username: 'scripts',
        password: 'secret',
      });
      const caller = createLimitsCaller(limited);
      const keys = createRedisStore({ client: limited, prefix: 'acl:' }).keysOf('user:acl');
      const args = admitArgs(admitEvent({ key: 'user:acl', limit: 5 }), T0, undefined);
      expect((await caller.call(config, keys, args))[0]).toBe(1);
      expect(caller.mode).toBe('script');
      expect(await root.function('LIST')).toEqual([]);
      expect(await walk(limited, 'acl-walk:')).toEqual(await walk(root, 'acl-root:'));
    } finally {
      await server.stop();
    }
  });
});
