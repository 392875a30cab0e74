// A real three-master Redis Cluster for one describe block, and the changes to its layout an operator
// makes: a replica added and promoted (CLUSTER FAILOVER), an empty hash slot moved between masters
// (CLUSTER SETSLOT, as a resharding tool does it). Each change is waited for on every node.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { type RunningRedis, requireRedis, startCluster, startRedis } from '../support/redis-server.js';

export interface ClusterForBlock {
  readonly cluster: Awaited<ReturnType<typeof startCluster>>;
  readonly client: Cluster;
  /** Every node's port, the masters' first, then the replicas added. */
  readonly ports: number[];
  /** A replica of `masterPort`, started, joined and in sync; stopped with the cluster. */
  addReplica(masterPort: number): Promise<number>;
}

/** One command to one node, by redis-cli; the reply as text. */
export function redisCli(port: number, ...args: string[]): string {
  return execFileSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' }).trim();
}

/** Polls `check` every 50 ms until it holds (10 s at most). */
export async function until(what: string, check: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`cluster: ${what} did not happen within 10 s`);
}

/** The port of the master of `slot`, as the node on `port` sees it (CLUSTER SLOTS, redis-cli's text). */
function ownerSeenBy(port: number, slot: number): number | undefined {
  const lines = redisCli(port, 'cluster', 'slots').split('\n');
  // Each range is: start, end, then per node host, port, id (and an empty hostname line on Redis 7).
  for (let i = 0; i + 4 < lines.length; i++) {
    const start = Number(lines[i]);
    const end = Number(lines[i + 1]);
    if (/^\d+$/.test(lines[i]!) && /^\d+$/.test(lines[i + 1]!) && lines[i + 2] === '127.0.0.1')
      if (start <= slot && slot <= end) return Number(lines[i + 3]);
  }
  return undefined;
}

/** Waits until every node says `port` serves `slot`, then has the client read the slot table again. */
export async function servedBy(running: ClusterForBlock, slot: number, port: number): Promise<void> {
  await until(
    `slot ${slot} served by ${port} (${running.ports.map((p) => `${p} sees ${ownerSeenBy(p, slot)}`)})`,
    () => running.ports.every((p) => ownerSeenBy(p, slot) === port),
  );
  await new Promise<void>((resolve) => running.client.refreshSlotsCache(() => resolve()));
  await until('the client to see it', () => running.client.slots[slot]?.[0] === `127.0.0.1:${port}`);
}

/**
 * The replica on `replicaPort` takes over from its master, in sync with it: TAKEOVER, without the
 * masters' votes, which a master refuses twice for one shard within 2 * cluster-node-timeout (4 s),
 * so a failover and the failback that follows it would wait that long.
 */
export async function failOver(running: ClusterForBlock, replicaPort: number, slot: number): Promise<void> {
  await until('the replica in sync', () =>
    redisCli(replicaPort, 'info', 'replication').includes('master_link_status:up'),
  );
  // A node that just joined learns the cluster's epoch by gossip: a takeover before it has would
  // claim the slots with an epoch no greater than their master's, and be ignored.
  const epochOf = (port: number) =>
    /cluster_current_epoch:(\d+)/.exec(redisCli(port, 'cluster', 'info'))?.[1];
  await until('every node at one epoch', () => new Set(running.ports.map(epochOf)).size === 1);
  const reply = redisCli(replicaPort, 'cluster', 'failover', 'takeover');
  if (reply !== 'OK') throw new Error(`cluster: CLUSTER FAILOVER on ${replicaPort} answered ${reply}`);
  await servedBy(running, slot, replicaPort);
}

/** Moves the empty `slot` from the master on `from` to the one on `to`, told to every node. */
export async function moveEmptySlot(running: ClusterForBlock, slot: number, from: number, to: number) {
  const idOf = (port: number) => redisCli(port, 'cluster', 'myid');
  redisCli(to, 'cluster', 'setslot', String(slot), 'importing', idOf(from));
  redisCli(from, 'cluster', 'setslot', String(slot), 'migrating', idOf(to));
  for (const port of [to, from, ...running.ports.filter((p) => p !== to && p !== from)])
    redisCli(port, 'cluster', 'setslot', String(slot), 'node', idOf(to));
  await servedBy(running, slot, to);
}

/** A three-master cluster for the describe block it is called in (started before, stopped after), and a client of it. */
export function clusterForBlock(extra: readonly string[] = []): ClusterForBlock {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-cluster-'));
  const added: RunningRedis[] = [];
  const running = {
    ports: [] as number[],
    async addReplica(masterPort: number): Promise<number> {
      const node = await startRedis([
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        `nodes-replica-${added.length}.conf`,
        '--dir',
        dir,
        '--cluster-node-timeout',
        '2000',
        // A master waits 5 s by default before it sends a new replica its data (diskless sync).
        '--repl-diskless-sync-delay',
        '0',
      ]);
      added.push(node);
      running.ports.push(node.port);
      const masterId = redisCli(masterPort, 'cluster', 'myid');
      redisCli(masterPort, 'config', 'set', 'repl-diskless-sync-delay', '0');
      redisCli(node.port, 'cluster', 'meet', '127.0.0.1', String(masterPort));
      await until('the new node to know the master', () =>
        redisCli(node.port, 'cluster', 'nodes').includes(masterId),
      );
      redisCli(node.port, 'cluster', 'replicate', masterId);
      await until('the replica in sync', () =>
        redisCli(node.port, 'info', 'replication').includes('master_link_status:up'),
      );
      return node.port;
    },
  } as { -readonly [K in keyof ClusterForBlock]: ClusterForBlock[K] };
  beforeAll(async () => {
    requireRedis();
    running.cluster = await startCluster(dir, extra);
    running.ports.push(...running.cluster.ports);
    const client = new Cluster(running.cluster.ports.map((port) => ({ host: '127.0.0.1', port })));
    running.client = client;
    await new Promise<void>((resolve) => client.once('ready', () => resolve()));
  }, 60_000);
  afterAll(async () => {
    running.client?.disconnect();
    await Promise.all([running.cluster?.stop(), ...added.map((node) => node.stop())]);
    rmSync(dir, { recursive: true, force: true });
  });
  return running;
}
