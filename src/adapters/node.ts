/** tollgate/node: the gate as `(req, res, next)` middleware for node:http, Connect and Express. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createGate, type Gate, type GateAnswer, type GateOptions, type RequestFacts } from '../index.js';
import { settleOnClose } from './socket-watch.js';

/** `next(error?)`: the rest of the server (Connect and Express pass one; plain node:http passes the handler). */
export type Next = (error?: unknown) => unknown;

// One literal of one shape per request (the address may be undefined): no spread, no second object.
function factsOf(req: IncomingMessage): RequestFacts {
  const headers = req.headers;
  return {
    method: req.method ?? 'GET',
    target: req.url ?? '/',
    header: (name) => {
      const value = headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    remoteAddress: req.socket.remoteAddress,
  };
}

// A 500 where no framework takes errors: the request never reaches the handler after a gate
// failure (a failed check is not a passed one), and the error is written out, never silent.
function fail(res: ServerResponse, error: unknown): void {
  console.error('tollgate: request failed with 500', error);
  if (res.headersSent || res.destroyed) res.destroy();
  else {
    res.removeHeader('content-length');
    res
      .writeHead(500, { 'content-type': 'application/json; charset=utf-8' })
      .end('{"message":"Internal Server Error"}');
  }
}

/** A gate already made (reused by several adapters) rather than its options: anything with a `check` method. */
const isGate = (options: GateOptions | Gate): options is Gate =>
  typeof (options as Partial<Gate> | null)?.check === 'function';

// Connect and Express set `originalUrl` before any middleware runs; their `next(err)` reaches the
// application's error handlers. In plain node:http, `next` is the handler itself.
const hasErrorRoute = (req: IncomingMessage): boolean =>
  (req as IncomingMessage & { originalUrl?: string }).originalUrl !== undefined;

/**
 * Middleware that runs the gate before the rest of the server: answers refusals itself, adds the
 * gate's headers to everything the handler answers, and settles the request's slot when the
 * response finishes, the client goes away or its connection closes (a pipelined request waiting
 * its turn included), or the handler throws or rejects. Errors go to `onError` first, then to
 * `next(err)` under Connect and Express, or to a 500 written to `console.error` in node:http.
 * @example
 * import { createServer } from 'node:http';
 * import { tollgate } from 'tollgate/node';
 * const gate = tollgate({ lookupToken: () => null });
 * createServer((req, res) => gate(req, res, () => res.end('ok'))).listen(0);
 */
export function tollgate(
  options: GateOptions | Gate,
): (req: IncomingMessage, res: ServerResponse, next: Next) => void | Promise<void> {
  const gate = isGate(options) ? options : createGate(options);
  const failed = (
    error: unknown,
    facts: RequestFacts,
    req: IncomingMessage,
    res: ServerResponse,
    next: Next,
  ) => {
    gate.reportError(error, facts);
    if (hasErrorRoute(req)) next(error);
    else fail(res, error);
  };
  // Synchronous while the gate is (a memory store and a synchronous lookup): no microtask per
  // request. Nor a closure: what may wait continues in a function of its own (`...Later`), so the
  // functions every request runs capture nothing (V8 makes a context object for every call of a
  // function whose closures capture its variables, whichever branch runs).
  const proceed = (
    answer: GateAnswer,
    facts: RequestFacts,
    req: IncomingMessage,
    res: ServerResponse,
    next: Next,
  ): void | Promise<void> => {
    if (answer.action === 'respond') {
      res.writeHead(answer.status, answer.headers).end(answer.body);
      return;
    }
    const { settle } = answer;
    if (settle !== null) {
      // The client went away while the gate was deciding: nothing to serve, the slot is freed.
      // (Not `req.destroyed`: a request whose body was read is destroyed with its client still there.)
      if (res.destroyed || req.socket.destroyed) {
        void settle.abort();
        return;
      }
      settleOnClose(res, req.socket, settle);
    }
    for (const name in answer.headers) res.setHeader(name, answer.headers[name]!);
    try {
      const done = next();
      if (done instanceof Promise) return failedLater(done, facts, req, res, next);
    } catch (error) {
      failed(error, facts, req, res, next);
    }
  };
  const failedLater = (
    done: Promise<unknown>,
    facts: RequestFacts,
    req: IncomingMessage,
    res: ServerResponse,
    next: Next,
  ): Promise<void> => done.then(undefined, (error) => failed(error, facts, req, res, next));
  const proceedLater = (
    answer: Promise<GateAnswer>,
    facts: RequestFacts,
    req: IncomingMessage,
    res: ServerResponse,
    next: Next,
  ): Promise<void> =>
    answer.then(
      (given) => proceed(given, facts, req, res, next),
      (error) => failed(error, facts, req, res, next),
    );
  return (req, res, next) => {
    const facts = factsOf(req);
    let answer: GateAnswer | Promise<GateAnswer>;
    try {
      answer = gate.check(facts);
    } catch (error) {
      failed(error, facts, req, res, next);
      return;
    }
    if (answer instanceof Promise) return proceedLater(answer, facts, req, res, next);
    return proceed(answer, facts, req, res, next);
  };
}
