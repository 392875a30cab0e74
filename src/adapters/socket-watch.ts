/** Requests in flight on one connection, freed when it closes: pipelined requests waiting their turn included. */
import type { Settle } from '../index.js';

/** The part of a socket the watch needs (node:net's Socket). */
interface Connection {
  readonly destroyed: boolean;
  once(event: 'close', listener: () => void): unknown;
}

// One 'close' listener per connection, whatever the number of requests it carries (keep-alive).
// The set lives on the socket under a symbol: one property per connection, no WeakMap lookup per
// request (ephemeron tables cost the garbage collector on every request).
const PENDING = Symbol('tollgate.pending');
type Watched = Connection & { [PENDING]?: Set<SlotWatch> };

/**
 * The slot of one admitted request, settled by whichever comes first: the response's end, the
 * client going away, or its connection closing. The connection matters for pipelining: Node queues
 * the response of a pipelined request until the ones before it are written, and a queued response
 * never emits `close` when the client hangs up; the request may have closed long before (its body
 * read). So the watch holds the request in its connection's set until it settles.
 * @example
 * import { createServer } from 'node:http';
 * import { tollgate } from 'tollgate/node';
 * // The node and Fastify adapters watch every admitted request this way.
 * createServer((req, res) => tollgate({ lookupToken: () => null })(req, res, () => res.end('[]')));
 */
export class SlotWatch {
  readonly #settle: Settle;
  readonly #pending: Set<SlotWatch> | undefined;

  constructor(settle: Settle, connection: Connection | null | undefined) {
    this.#settle = settle;
    let pending: Set<SlotWatch> | undefined;
    if (connection != null) {
      pending = (connection as Watched)[PENDING];
      if (pending === undefined) {
        const created = new Set<SlotWatch>();
        (connection as Watched)[PENDING] = created;
        connection.once('close', () => {
          for (const watch of created) watch.abort();
        });
        pending = created;
      }
      pending.add(this);
    }
    this.#pending = pending;
  }

  /** The response was sent with `status`. */
  finish(status: number): void {
    this.#pending?.delete(this);
    void this.#settle.finish(status);
  }

  /** The client went away (or the connection closed) before the response ended. */
  abort(): void {
    this.#pending?.delete(this);
    void this.#settle.abort();
  }
}

/** The part of a response the watch needs (node:http's ServerResponse). */
interface Response {
  readonly socket: unknown;
  readonly writableFinished: boolean;
  readonly statusCode: number;
  on(event: 'close', listener: (this: Response) => void): unknown;
}

// The settlement of a response, kept on the response under a symbol so one shared listener serves
// every request: no closure and no context object per request.
const SETTLE = Symbol('tollgate.settle');
type Settled = Response & { [SETTLE]?: Pick<Settle, 'finish' | 'abort'> };

// Sent: finish with its status; closed before that (the client went away): abort.
function settleResponse(res: Response, watch: Pick<Settle, 'finish' | 'abort'>): void {
  if (res.writableFinished) void watch.finish(res.statusCode);
  else void watch.abort();
}

function settleOnEnd(this: Settled): void {
  settleResponse(this, this[SETTLE]!);
}

/**
 * Settles an admitted request when its response emits `close`: once, after `finish` when it was
 * sent (then `finish(statusCode)`), or when the client went away first (then `abort`). One listener
 * per request, added with `on` (a `once` wrapper would bind a function per request), and shared by
 * all responses (Node calls it with the response as `this`). Only a queued response (pipelined
 * behind another, no socket yet) needs its connection watched as well: it never emits `close`
 * when the client hangs up, and the one on the socket does.
 * @example
 * import { createServer } from 'node:http';
 * import { tollgate } from 'tollgate/node';
 * // The node and Fastify adapters settle every admitted request this way.
 * createServer((req, res) => tollgate({ lookupToken: () => null })(req, res, () => res.end('[]')));
 */
export function settleOnClose(res: Response, connection: Connection, settle: Settle): void {
  const watch = res.socket === null ? new SlotWatch(settle, connection) : settle;
  const settled = res as Settled;
  if (settled[SETTLE] === undefined) {
    settled[SETTLE] = watch;
    res.on('close', settleOnEnd);
    return;
  }
  // A second gate on the same response (two middlewares): its own listener, its own settlement.
  res.on('close', () => settleResponse(res, watch));
}
