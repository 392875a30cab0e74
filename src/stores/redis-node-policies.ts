/** The Redis store's failure policies: one per Cluster master, so a node that is down pauses only the identities it holds. */
import type { Ticket } from '../limits/limit-event.js';
import {
  type ConnectionLike,
  createFailurePolicy,
  type FailurePolicy,
  type FailurePolicyOptions,
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
  /** Resolves once every call of every policy settled. */
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
 * One failure policy for a plain client; for a Cluster client (one with a slot table), one per
 * master, found by the key's slot. Measured with one master of three killed (SIGKILL, 2,000
 * admissions a second over 300 identities): with one policy for the whole store, each call to the
 * dead node failed after `timeoutMs` and paused every identity for `retryAfterFailureMs`, so about
 * 90% of the healthy identities' admissions were answered by `onFailure` for as long as the node
 * stayed down (ioredis retries such a call for 1-2 s and never fails it fast, and the cluster's
 * status stays `ready`). A slot whose master is not known yet shares the first policy.
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
  const first = createFailurePolicy(client, options);
  const policies = [first];
  if (!Array.isArray(client.slots)) {
    return {
      of: () => first,
      owning: (ticket) => (first.ownsTicket(ticket) ? first : undefined),
      idle: () => first.idle(),
    };
  }
  const byNode = new Map<string, FailurePolicy>();
  return {
    of(identity) {
      // Read afresh each time: the client rewrites its table when the cluster's layout changes.
      const node = client.slots?.[keySlot(redisKeyOf(identity))]?.[0];
      if (node === undefined) return first;
      let policy = byNode.get(node);
      if (policy === undefined) {
        policy = byNode.size === 0 ? first : createFailurePolicy(client, options);
        byNode.set(node, policy);
        if (policy !== first) policies.push(policy);
      }
      return policy;
    },
    // A slot may have moved since: the ticket is asked of every policy (one per master).
    owning: (ticket) => policies.find((policy) => policy.ownsTicket(ticket)),
    idle: async () => {
      await Promise.all(policies.map((policy) => policy.idle()));
    },
  };
}
