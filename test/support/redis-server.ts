// A real redis-server for the tests: 127.0.0.1, a free port, no persistence; stopped at the end.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';

export interface RunningRedis {
  readonly port: number;
  readonly url: string;
  stop(): Promise<void>;
}

/** True when Debian's redis-server is installed. */
export function redisAvailable(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The one line `npm test` prints when redis-server is missing (CI fails instead). */
export const REDIS_MISSING =
  'redis-server not found: the Redis store tests need it (Debian: `apt-get install -y redis-server`); under CI=true they fail';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function waitReady(port: number, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null)
      throw new Error(`redis-server on port ${port} exited with ${child.exitCode}`);
    const client = new Redis({
      port,
      host: '127.0.0.1',
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    client.on('error', () => {});
    try {
      await client.connect();
      if ((await client.ping()) === 'PONG') return;
    } catch {
      // not yet listening
    } finally {
      client.disconnect();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server on port ${port} did not answer`);
}

/** Starts redis-server with `extra` arguments (e.g. cluster mode) on a free port. */
export async function startRedis(extra: string[] = [], port?: number): Promise<RunningRedis> {
  const chosen = port ?? (await freePort());
  const child = spawn(
    'redis-server',
    ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...extra],
    { stdio: 'ignore' },
  );
  await waitReady(chosen, child);
  return {
    port: chosen,
    url: `redis://127.0.0.1:${chosen}`,
    stop: () =>
      new Promise((resolve) => {
        // Killed by a signal, a child keeps exitCode null: a second stop must not wait for 'exit'.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

/** Three masters on free ports, joined into one Cluster by `redis-cli --cluster create`. */
export async function startCluster(
  dir: string,
  extra: readonly string[] = [],
): Promise<{ ports: number[]; nodes: readonly RunningRedis[]; stop(): Promise<void> }> {
  const nodes: RunningRedis[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      nodes.push(
        await startRedis(
          [
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            `nodes-${port}.conf`,
            '--dir',
            dir,
            '--cluster-node-timeout',
            '2000',
            ...extra,
          ],
          port,
        ),
      );
    }
    execFileSync(
      'redis-cli',
      [
        '--cluster',
        'create',
        ...nodes.map((node) => `127.0.0.1:${node.port}`),
        '--cluster-replicas',
        '0',
        '--cluster-yes',
      ],
      { stdio: 'ignore' },
    );
    // Wait until every node agrees the cluster is up.
    for (let attempt = 0; attempt < 100; attempt++) {
      const states = nodes.map((node) =>
        execFileSync('redis-cli', ['-p', String(node.port), 'cluster', 'info'], { encoding: 'utf8' }),
      );
      if (states.every((info) => info.includes('cluster_state:ok'))) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    await Promise.all(nodes.map((node) => node.stop()));
    throw error;
  }
  return {
    ports: nodes.map((node) => node.port),
    nodes,
    stop: async () => {
      await Promise.all(nodes.map((node) => node.stop()));
    },
  };
}

const installed = redisAvailable();
if (!installed && !process.env.CI) console.log(REDIS_MISSING);
/**
 * Whether the Redis tests run: where redis-server is installed, and always under CI (where a
 * missing one then fails them instead of skipping). Elsewhere `REDIS_MISSING` is printed once.
 */
export const runRedisTests = installed || Boolean(process.env.CI);

/** Throws REDIS_MISSING where the tests run without a redis-server (under CI). */
export function requireRedis(): void {
  if (!installed) throw new Error(REDIS_MISSING);
}

/** A redis-server and a client for the tests of the enclosing describe block, stopped after it. */
export function sharedRedis(): { server: RunningRedis; client: Redis } {
  const shared = {} as { server: RunningRedis; client: Redis };
  beforeAll(async () => {
    requireRedis();
    shared.server = await startRedis();
    shared.client = new Redis(shared.server.url);
  });
  afterAll(async () => {
    shared.client?.disconnect();
    await shared.server?.stop();
  });
  return shared;
}
