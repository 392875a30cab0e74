/** tollgate/fastify: the gate as a Fastify plugin (onRequest, onResponse, onRequestAbort hooks). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  createGate,
  type Gate,
  type GateAnswer,
  type GateOptions,
  type RequestFacts,
  type Settle,
} from '../index.js';

function factsOf(request: FastifyRequest): RequestFacts {
  return {
    method: request.method,
    target: request.raw.url ?? request.url,
    header: (name) => {
      const value = request.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    ...(request.socket.remoteAddress === undefined ? {} : { remoteAddress: request.socket.remoteAddress }),
  };
}

/** A gate already made (reused by several adapters) rather than its options: anything with a `check` method. */
const isGate = (options: GateOptions | Gate): options is Gate =>
  typeof (options as Partial<Gate> | null)?.check === 'function';

/** The gate's options without those Fastify itself reads from `register` (and passes on to the plugin). */
function gateOptionsOf(options: GateOptions): GateOptions {
  if (typeof options !== 'object' || options === null) return options;
  const {
    prefix: _prefix,
    logLevel: _logLevel,
    logSerializers: _logSerializers,
    ...gateOptions
  } = options as GateOptions & Record<'prefix' | 'logLevel' | 'logSerializers', unknown>;
  return gateOptions;
}

/**
 * The plugin: `app.register(tollgatePlugin, options)`. It does not encapsulate (fastify-plugin's
 * convention, without the dependency), so its hooks cover every route of the instance it is
 * registered on. Refusals are answered in `onRequest`; allowed requests get the gate's headers
 * and are settled in `onResponse`, or freed in `onRequestAbort`.
 * @example
 * import Fastify from 'fastify';
 * import { tollgatePlugin } from 'tollgate/fastify';
 * const app = Fastify();
 * await app.register(tollgatePlugin, { lookupToken: () => null });
 */
export async function tollgatePlugin(app: FastifyInstance, options: GateOptions | Gate): Promise<void> {
  const gate = isGate(options) ? options : createGate(gateOptionsOf(options));
  const settles = new WeakMap<FastifyRequest, Settle>();
  // Callback style, so a synchronous gate (memory store, synchronous lookup) costs no promise.
  app.addHook('onRequest', (request, reply, done) => {
    const proceed = (answer: GateAnswer): void => {
      if (answer.action === 'respond') {
        reply.code(answer.status).headers(answer.headers).send(answer.body);
        return;
      }
      // The client went away while the gate was deciding: nothing to serve, the slot is freed.
      if (request.raw.destroyed || reply.raw.destroyed) {
        void answer.settle.abort();
        return;
      }
      reply.headers(answer.headers);
      settles.set(request, answer.settle);
      done();
    };
    // A gate failure answers 500 itself: the request never reaches a route unchecked.
    const failed = () => void reply.code(500).send({ message: 'Internal Server Error' });
    let answer: GateAnswer | Promise<GateAnswer>;
    try {
      answer = gate.check(factsOf(request));
    } catch {
      failed();
      return;
    }
    if (answer instanceof Promise) answer.then(proceed, failed);
    else proceed(answer);
  });
  const settled = (result: void | Promise<void> | undefined, done: (error?: Error) => void): void => {
    if (result instanceof Promise) result.then(() => done(), done);
    else done();
  };
  app.addHook('onResponse', (request, reply, done) =>
    settled(settles.get(request)?.finish(reply.statusCode), done),
  );
  app.addHook('onRequestAbort', (request, done) => settled(settles.get(request)?.abort(), done));
}

// fastify-plugin's markers: no encapsulation, a name, the Fastify major it was written for.
Object.assign(tollgatePlugin, {
  [Symbol.for('skip-override')]: true,
  [Symbol.for('fastify.display-name')]: 'tollgate',
  [Symbol.for('plugin-meta')]: { name: 'tollgate', fastify: '5.x' },
});
