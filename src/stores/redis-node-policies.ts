/** The Redis store's failure policies: one per Cluster master, so a node that is down pauses only the identities it holds. */
import type { Ticket } from '../limits/limit-event.js';
import {
  type ConnectionLike,
  createFailurePolicy,
  type FailurePolicy,
  type FailurePolicyOptions,
  type TicketOwners,
} from './redis-failure-policy.js';

/** A client's slot table, as an ioredis Cluster keeps it: per hash slot, its master's node key first. */
interface SlotTable {
  readonly slots?: readonly (readonly string[] | undefined)[];
}

export interface NodePolicies {
  /** The policy of the node that holds `identity`'s key (the one policy of a client that is not a Cluster). */
  of(identity: string): FailurePolicy;
  /** The policy that answered for `ticket` itself (fallback or fail-open), which settles it too. */
  owning(ticket: Ticket): FailurePolicy | undefined;
  /** Clears `identity`'s state in every policy's fallback store (its key may have had another master). */
  reset(identity: string): void;
  /** Resolves once every call of every policy settled (a dropped policy's too). */
  idle(): Promise<void>;
}

// CRC16-CCITT (XMODEM), the checksum Redis Cluster takes of a key modulo 16,384.
const CRC16 = new Uint16Array(256);
for (let n = 0; n < 256; n++) {
  let crc = n << 8;
  for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1;
  CRC16[n] = crc & 0xffff;
}

/**
 * The hash slot Redis Cluster gives `key`: of its hash tag (the text between the first `{` and
 * the next `}`, when not empty), else of the whole key; bytes as UTF-8.
 * @example
 * import { keySlot } from './redis-node-policies.js';
 * keySlot('foo'); // 12182
 * keySlot('tollgate:{user:octocat}:v2') === keySlot('user:octocat'); // true
 */
export function keySlot(key: string): number {
  let text = key;
  const open = key.indexOf('{');
  if (open !== -1) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) text = key.slice(open + 1, close);
  }
  let crc = 0;
  for (const byte of Buffer.from(text, 'utf8'))
    crc = ((crc << 8) & 0xffff) ^ CRC16[((crc >> 8) ^ byte) & 0xff]!;
  return crc % 16384;
}

/**
 * The client as the policies see it: its status, and one 'ready' listener on it for all of them
 * however many wait (one each made ioredis warn MaxListenersExceeded past ten masters).
 */
function sharedReady(client: ConnectionLike): ConnectionLike {
  if (typeof client.once !== 'function') return client;
  const waiting: (() => void)[] = [];
  const ready = () => {
    for (const listener of waiting.splice(0)) listener();
  };
  return {
    get status() {
      return client.status;
    },
    once(_event, listener) {
      if (waiting.push(listener) === 1) client.once!('ready', ready);
    },
  };
}

/** The master of every slot of `slots` that names one. */
function masters(slots: SlotTable['slots']): Set<string> {
  const serving = new Set<string>();
  for (const nodes of slots ?? []) if (nodes?.[0] !== undefined) serving.add(nodes[0]);
  return serving;
}

/**
 * One failure policy for a plain client; for a Cluster client (one with a slot table), one per
 * master, found by the key's slot. Measured with one master of three killed (SIGKILL, 2,000
 * admissions a second over 300 identities): with one policy for the whole store, each call to the
 * dead node failed after `timeoutMs` and paused every identity for `retryAfterFailureMs`, so about
 * 90% of the healthy identities' admissions were answered by `onFailure` for as long as the node
 * stayed down (ioredis retries such a call for 1-2 s and never fails it fast, and the cluster's
 * status stays `ready`). A slot whose master is not known yet shares the first policy.
 * When a master not seen before appears (a failover promoted a replica, a master was added), the
 * policies of addresses that no longer serve a slot are dropped, so failovers do not pile them
 * up: a dropped policy's pause no longer matters, and the tickets it answered still reach it
 * (`owning`: held by the tickets themselves, not by this table) and settle in its fallback store.
 * @example
 * import { createNodePolicies } from './redis-node-policies.js';
 * const options = { timeoutMs: 50, onFailure: 'fail-closed', retryAfterFailureMs: 1000, fallbackShare: 1 } as const;
 * const policies = createNodePolicies({ status: 'ready' }, options, (key) => `tollgate:{${key}}:v2`);
 * policies.of('user:a') === policies.of('user:b'); // true: not a Cluster
 */
export function createNodePolicies(
  client: ConnectionLike & SlotTable,
  options: FailurePolicyOptions,
  redisKeyOf: (identity: string) => string,
): NodePolicies {
  const connection = sharedReady(client);
  /** Who answered each ticket answered locally: a WeakMap, so a dropped policy lives on while its tickets do. */
  const owners: TicketOwners = new WeakMap();
  const create = () => createFailurePolicy(connection, options, owners);
  let first = create();
  if (!Array.isArray(client.slots)) {
    return {
      of: () => first,
      owning: (ticket) => owners.get(ticket),
      reset: (identity) => first.reset(identity),
      idle: () => first.idle(),
    };
  }
  /** The policy of each master address; `first` goes to the first one seen. */
  const byNode = new Map<string, FailurePolicy>();
  let firstTaken = false;
  /** Dropped policies whose calls are still under way: `idle` waits for them. */
  const dropped = new Set<FailurePolicy>();

  const dropGone = () => {
    const serving = masters(client.slots);
    for (const [node, policy] of byNode) {
      if (serving.has(node)) continue;
      byNode.delete(node);
      dropped.add(policy);
      void policy.idle().then(() => dropped.delete(policy));
      if (policy === first) {
        first = create();
        firstTaken = false;
      }
    }
  };

  return {
    of(identity) {
      // Read afresh each time: the client rewrites its table when the cluster's layout changes.
      const node = client.slots?.[keySlot(redisKeyOf(identity))]?.[0];
      if (node === undefined) return first;
      let policy = byNode.get(node);
      if (policy === undefined) {
        // A master not seen before: the table changed; scanned once per new address (16,384 slots).
        if (byNode.size > 0) dropGone();
        policy = firstTaken ? create() : first;
        firstTaken = true;
        byNode.set(node, policy);
      }
      return policy;
    },
    owning: (ticket) => owners.get(ticket),
    reset(identity) {
      for (const policy of new Set([first, ...byNode.values()])) policy.reset(identity);
    },
    idle: async () => {
      await Promise.all([first, ...byNode.values(), ...dropped].map((policy) => policy.idle()));
    },
  };
}
