// `npm run demo:server` as a newcomer runs it: the script starts, prints its address and tokens,
// and answers the first curl of its list.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../support/build-once.js';
import { runRedisTests, startRedis } from '../support/redis-server.js';

async function startDemo(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/run-demo-server.ts', ...args], {
    cwd: projectRoot,
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8');
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      const found = /demo server on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (found !== null && output.includes('try:')) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`demo server exited with ${code}: ${output}`)));
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.kill();
    await exited;
  };
  return { url, output, stop };
}

describe('npm run demo:server -- --redis URL', () => {
  it.runIf(runRedisTests)('keeps the limits in Redis', async () => {
    const redis = await startRedis();
    const client = new Redis(redis.url);
    const demo = await startDemo(['--redis', redis.url]);
    try {
      expect(demo.output).toContain(`limits in Redis at ${redis.url}`);
      const response = await fetch(`${demo.url}/repos/acme/app/issues/events`, {
        headers: { authorization: 'Bearer demo-issues-reader' },
      });
      expect(response.status).toBe(200);
      expect(await client.exists('tollgate:{user:mona}:v2')).toBe(1);
    } finally {
      await demo.stop();
      client.disconnect();
      await redis.stop();
    }
  });
});

describe('npm run demo:server', () => {
  it('starts, prints tokens to try, and answers with tollgate in front', async () => {
    const demo = await startDemo([]);
    try {
      expect(demo.output).toMatch(/demo-issues-reader\s+fine-grained, permissions issues=read/);
      const allowed = await fetch(`${demo.url}/repos/acme/app/issues/events`, {
        headers: { authorization: 'Bearer demo-issues-reader' },
      });
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get('x-ratelimit-remaining')).toBe('4999');
      const hidden = await fetch(`${demo.url}/repos/acme/other/issues/events`, {
        headers: { authorization: 'Bearer demo-issues-reader' },
      });
      expect(hidden.status).toBe(404);
    } finally {
      await demo.stop();
    }
  });
});
