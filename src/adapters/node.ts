/** tollgate/node: the gate as `(req, res, next)` middleware for node:http, Connect and Express 5. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createGate, type Gate, type GateAnswer, type GateOptions, type RequestFacts } from '../index.js';

/** `next(error?)`: the rest of the server (Connect and Express pass one; plain node:http passes the handler). */
export type Next = (error?: unknown) => unknown;

function factsOf(req: IncomingMessage): RequestFacts {
  return {
    method: req.method ?? 'GET',
    target: req.url ?? '/',
    header: (name) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    ...(req.socket.remoteAddress === undefined ? {} : { remoteAddress: req.socket.remoteAddress }),
  };
}

// A handler (or the gate itself) that failed before answering still answers. The request never
// reaches the handler after a gate failure: a failed check is not a passed one.
function fail(res: ServerResponse): void {
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

/**
 * Middleware that runs the gate before the rest of the server: answers refusals itself, adds the
 * gate's headers to everything the handler answers, and settles the request's slot when the
 * response finishes, the client goes away, or the handler throws or rejects.
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
  // Synchronous while the gate is (a memory store and a synchronous lookup): no microtask per request.
  const proceed = (answer: GateAnswer, res: ServerResponse, next: Next): void | Promise<void> => {
    if (answer.action === 'respond') {
      res.writeHead(answer.status, answer.headers).end(answer.body);
      return;
    }
    const { settle } = answer;
    // The client went away while the gate was deciding: nothing to serve, the slot is freed.
    if (res.destroyed || res.req.destroyed) {
      void settle.abort();
      return;
    }
    for (const name in answer.headers) res.setHeader(name, answer.headers[name]!);
    // One listener: a response emits 'close' after 'finish' too, so this sees every ending.
    res.once('close', () => void (res.writableFinished ? settle.finish(res.statusCode) : settle.abort()));
    try {
      const done = next();
      if (done instanceof Promise) return done.then(undefined, () => fail(res));
    } catch {
      fail(res);
    }
  };
  return (req, res, next) => {
    let answer: GateAnswer | Promise<GateAnswer>;
    try {
      answer = gate.check(factsOf(req));
    } catch {
      fail(res);
      return;
    }
    if (answer instanceof Promise)
      return answer.then(
        (given) => proceed(given, res, next),
        () => fail(res),
      );
    return proceed(answer, res, next);
  };
}
