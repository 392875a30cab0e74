/** The store's calls of one event-loop turn, sent together at its end: one socket write for many calls. */
// Hot path: every admission and completion is sent through `later`; bench/redis.mjs guards its cost.
import type { RedisClientLike } from './redis-store-options.js';

/** Calls written in one socket write at most: several writes per turn at 64 in flight, so Redis starts on the first while the rest are sent. */
const CALLS_PER_WRITE = 16;

/** A call waiting for the end of the turn. */
interface Queued {
  readonly send: () => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Sends calls at the end of the current turn of the event loop.
 * @example
 * import { Redis } from 'ioredis';
 * import { createSendQueue } from './redis-send-queue.js';
 * const client = new Redis();
 * await createSendQueue(client).later(() => client.ping()); // 'PONG'
 */
export interface SendQueue {
  /**
   * `send()`'s promise; `send` runs once the event loop's current I/O pass ends (or at once when
   * the client has no socket of its own), so what it reads of the clock is the time the call goes out.
   */
  later<T>(send: () => Promise<T>): Promise<T>;
}

/**
 * A queue over `client`'s socket. ioredis writes each command to the socket as it comes: one
 * system call per call, 40% of the node process's CPU at 64 calls in flight. The calls made in
 * one pass of the event loop are sent together, with the socket held (cork): when the pass's I/O
 * callbacks are done (`setImmediate`), or at once when CALLS_PER_WRITE are waiting. They go in
 * order, each built when it goes out (an admission's deadline counts from then, so a pass the
 * caller keeps busy after making its call does not make Redis refuse it as late). \`together\`
 * runs each flush's sends (the store's caller makes them one batch call: redis-caller.ts). A
 * client without its own socket (a Cluster) sends each call at once.
 *
 * Why the end of the pass and not of each callback (\`process.nextTick\`, as before): behind an
 * HTTP server each request arrives in a socket callback of its own, so admissions went one to a
 * call. Behind node:http with 64 connections (autocannon, a local Redis, two runs each): 8,647
 * and 8,234 FCALLs for 9,000 and 8,000 requests in 2 s before, 1,415 and 1,340 for 13,000 and
 * 12,000 after.
 * @example
 * import { Redis } from 'ioredis';
 * import { createSendQueue } from './redis-send-queue.js';
 * const client = new Redis();
 * const queue = createSendQueue(client);
 * await queue.later(() => client.ping()); // 'PONG'
 */
export function createSendQueue(
  client: RedisClientLike,
  together: (sendAll: () => void) => void = (sendAll) => sendAll(),
): SendQueue {
  let queued: Queued[] = [];

  /** Sends what is queued, the socket held meanwhile: one write. */
  const flush = () => {
    const calls = queued;
    if (calls.length === 0) return;
    queued = [];
    const socket = client.stream;
    const held = typeof socket?.cork === 'function' && typeof socket.uncork === 'function';
    if (held) socket.cork!();
    together(() => {
      for (const call of calls) {
        try {
          call.resolve(call.send());
        } catch (error) {
          call.reject(error);
        }
      }
    });
    if (held) socket.uncork!();
  };

  return {
    later<T>(send: () => Promise<T>): Promise<T> {
      const socket = client.stream;
      if (typeof socket?.cork !== 'function' || typeof socket.uncork !== 'function') return send();
      return new Promise<T>((resolve, reject) => {
        const waiting = queued.push({ send, resolve: resolve as (value: unknown) => void, reject });
        if (waiting === 1) setImmediate(flush);
        // A full write goes now: Redis starts on it while the pass makes the next calls.
        else if (waiting === CALLS_PER_WRITE) flush();
      });
    },
  };
}
