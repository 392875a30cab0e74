/** tollgate/fastify: the gate as a Fastify plugin (onRequest, onResponse, onRequestAbort hooks). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createGate, type Gate, type GateAnswer, type GateOptions, type RequestFacts } from '../index.js';
import { SlotWatch } from './socket-watch.js';

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
 * and are settled in `onResponse`, or freed in `onRequestAbort` or when their connection closes
 * (a pipelined request waiting its turn included). A gate failure goes to `onError` first, then to
 * Fastify's error handler (`setErrorHandler`, or Fastify's default 500, logged).
 * @example
 * import Fastify from 'fastify';
 * import { tollgatePlugin } from 'tollgate/fastify';
 * const app = Fastify();
 * await app.register(tollgatePlugin, { lookupToken: () => null });
 */
export async function tollgatePlugin(app: FastifyInstance, options: GateOptions | Gate): Promise<void> {
  const gate = isGate(options) ? options : createGate(gateOptionsOf(options));
  const watches = new WeakMap<FastifyRequest, SlotWatch>();
  // Callback style, so a synchronous gate (memory store, synchronous lookup) costs no promise.
  app.addHook('onRequest', (request, reply, done) => {
    const facts = factsOf(request);
    const proceed = (answer: GateAnswer): void => {
      if (answer.action === 'respond') {
        reply.code(answer.status).headers(answer.headers).send(answer.body);
        return;
      }
      const { settle } = answer;
      if (settle !== null) {
        // The client went away while the gate was deciding: nothing to serve, the slot is freed.
        if (request.raw.socket.destroyed || reply.raw.destroyed) {
          void settle.abort();
          return;
        }
        watches.set(request, new SlotWatch(settle, request.raw.socket));
      }
      reply.headers(answer.headers);
      done();
    };
    // A gate failure never lets the request reach a route unchecked: Fastify's error path answers.
    const failed = (error: unknown): void => {
      gate.reportError(error, facts);
      done(error instanceof Error ? error : new Error(String(error)));
    };
    let answer: GateAnswer | Promise<GateAnswer>;
    try {
      answer = gate.check(facts);
    } catch (error) {
      failed(error);
      return;
    }
    if (answer instanceof Promise) answer.then(proceed, failed);
    else proceed(answer);
  });
  app.addHook('onResponse', (request, reply, done) => {
    watches.get(request)?.finish(reply.statusCode);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    watches.get(request)?.abort();
    done();
  });
}

// fastify-plugin's markers: no encapsulation, a name, the Fastify major it was written for.
Object.assign(tollgatePlugin, {
  [Symbol.for('skip-override')]: true,
  [Symbol.for('fastify.display-name')]: 'tollgate',
  [Symbol.for('plugin-meta')]: { name: 'tollgate', fastify: '5.x' },
});
