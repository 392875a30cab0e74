// Four Node processes hammer one identity through one Redis: together they never pass a limit.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createRedisStore } from '../../src/stores/redis-store.js';
import { projectRoot } from '../support/build-once.js';
import { runRedisTests, sharedRedis } from '../support/redis-server.js';

const PROCESSES = 4;

function hammer(url: string, barrierKey: string): Promise<{ admitted: number; refused: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/stores/fixtures/hammer.ts', url, '2500', '40', barrierKey, String(PROCESSES)],
      {
        cwd: projectRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`hammer exited ${code}: ${err}`)),
    );
  });
}

describe.runIf(runRedisTests)('many processes, one limit', () => {
  const redis = sharedRedis();

  it('admits at most the limit in all, and never more than 100 in flight across the processes', async () => {
    // Tickets held in the identity's value (its inFlight counts them).
    const reader = createRedisStore({ client: redis.client, timeoutMs: 2_000 });
    const held = async () => (await reader.read('user:shared'))?.inFlight ?? 0;
    let mostInFlight = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        mostInFlight = Math.max(mostInFlight, await held());
        await new Promise((resolve) => setTimeout(resolve, 3));
      }
    })();
    const barrierKey = `test:hammer-barrier:${process.pid}:${Date.now()}`;
    const results = await Promise.all(
      Array.from({ length: PROCESSES }, () => hammer(redis.server.url, barrierKey)),
    );
    sampling = false;
    await sampler;
    const admitted = results.reduce((sum, r) => sum + r.admitted, 0);
    const refused = results.reduce((sum, r) => sum + r.refused, 0);
    const state = await createRedisStore({ client: redis.client }).read('user:shared');
    // Counted on the server: the primary window holds every admission, and no more than the limit.
    expect(state?.coreUsed).toBe(admitted);
    expect(admitted).toBe(500);
    expect(refused).toBeGreaterThan(0);
    expect(mostInFlight).toBeGreaterThan(50);
    expect(mostInFlight).toBeLessThanOrEqual(100);
    expect(await held()).toBe(0);
  }, 60_000);
});
