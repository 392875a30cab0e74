/** tollgate/fastify: the gate as a Fastify plugin (one onRequest hook). */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  createGate,
  type Gate,
  type GateAnswer,
  type GateOptions,
  type RequestFacts,
  TollgateError,
} from '../index.js';
import { settleOnClose } from './socket-watch.js';

/**
 * The request's facts. The peer is Fastify's `request.ip`: the socket's address, or when the
 * instance trusts proxies (Fastify's own `trustProxy`) the client's as Fastify reads it. Leave the
 * gate's `trustProxy` unset then, or the hops count twice.
 */
function factsOf(request: FastifyRequest): RequestFacts {
  const headers = request.headers;
  // One literal of one shape per request (the address may be undefined): no spread, no second object.
  return {
    method: request.method,
    target: request.raw.url ?? request.url,
    header: (name) => {
      const value = headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    remoteAddress: request.ip ?? request.socket.remoteAddress,
  };
}

/** A gate already made (reused by several adapters) rather than its options: anything with a `check` method. */
const isGate = (options: GateOptions | Gate): options is Gate =>
  typeof (options as Partial<Gate> | null)?.check === 'function';

// Fastify's prefixes: the one of the context the plugin is registered in (`app.prefix`; the
// plugin does not encapsulate, so that is the caller's) and `register(..., { prefix })`. Neither
// changes the URL a hook sees, so the gate's basePath starts with them.
function gateUnder(
  contextPrefix: string,
  options: (GateOptions & { readonly prefix?: string }) | Gate,
): Gate {
  // Not an object: createGate refuses it, by its own name, in one line.
  if (typeof options !== 'object' || options === null) return createGate(options as GateOptions);
  const prefix = joinPaths(contextPrefix, 'prefix' in options ? (options.prefix ?? '') : '');
  if (isGate(options)) {
    if (prefix === '') return options;
    throw new TollgateError(
      'TOLLGATE_INVALID_OPTION',
      `tollgate/fastify: a ready-made gate registered under the prefix \`${prefix}\`; register the gate's options instead, or create it with \`basePath: '${prefix}'\` outside any prefix`,
    );
  }
  // Fastify passes its own register options on to the plugin too: they are not the gate's.
  const {
    prefix: _registered,
    logLevel: _logLevel,
    logSerializers: _logSerializers,
    ...gateOptions
  } = options as GateOptions & Record<'prefix' | 'logLevel' | 'logSerializers', unknown>;
  const given: unknown = gateOptions.basePath ?? '';
  // A basePath that is not a path is left for createGate to refuse, by its own name.
  if (prefix === '' || typeof given !== 'string' || (given !== '' && !given.startsWith('/')))
    return createGate(gateOptions);
  return createGate({ ...gateOptions, basePath: joinPaths(prefix, given) });
}

const joinPaths = (first: string, second: string): string =>
  (first.endsWith('/') ? first.slice(0, -1) : first) + second;

/**
 * The plugin: `app.register(tollgatePlugin, options)`. It does not encapsulate (fastify-plugin's
 * convention, without the dependency), so its hooks cover every route of the instance it is
 * registered on, with one `onRequest` hook. Refusals are answered there; allowed requests get the
 * gate's headers and are settled when their response ends, or freed when the client goes away or
 * their connection closes (a pipelined request waiting its turn included). A gate failure goes to `onError` first, then to
 * Fastify's error handler (`setErrorHandler`, or Fastify's default 500, logged). Under a prefix
 * (`register(tollgatePlugin, { prefix: '/api', ... })`, or registered inside a prefixed context)
 * the API is taken to live there: the prefix starts the gate's `basePath`.
 * @example
 * import Fastify from 'fastify';
 * import { tollgatePlugin } from 'tollgate/fastify';
 * const app = Fastify();
 * await app.register(tollgatePlugin, { lookupToken: () => null });
 */
export async function tollgatePlugin(
  app: FastifyInstance,
  options: (GateOptions & { readonly prefix?: string }) | Gate,
): Promise<void> {
  const gate = gateUnder(app.prefix, options);
  // Callback style, so a synchronous gate (memory store, synchronous lookup) costs no promise,
  // and no closure per request on that path.
  app.addHook('onRequest', (request, reply, done) => {
    const facts = factsOf(request);
    let answer: GateAnswer | Promise<GateAnswer>;
    try {
      answer = gate.check(facts);
    } catch (error) {
      failed(gate, error, facts, done);
      return;
    }
    if (answer instanceof Promise) proceedLater(gate, answer, facts, request, reply, done);
    else proceed(answer, request, reply, done);
  });
}

// The wait in a function of its own: the hook itself captures nothing, so no context object is
// made for each request (V8 makes one for every call of a function whose closures capture).
function proceedLater(
  gate: Gate,
  answer: Promise<GateAnswer>,
  facts: RequestFacts,
  request: FastifyRequest,
  reply: FastifyReply,
  done: Done,
): void {
  answer.then(
    (given) => proceed(given, request, reply, done),
    (error) => failed(gate, error, facts, done),
  );
}

type Done = (error?: Error) => void;

function proceed(answer: GateAnswer, request: FastifyRequest, reply: FastifyReply, done: Done): void {
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
    // One hook and one listener on the raw response (Fastify's onResponse and onRequestAbort hooks
    // would add two response listeners, a request listener and their closures to every request).
    settleOnClose(reply.raw, request.raw.socket, settle);
  }
  reply.headers(answer.headers);
  done();
}

// A gate failure never lets the request reach a route unchecked: Fastify's error path answers.
function failed(gate: Gate, error: unknown, facts: RequestFacts, done: Done): void {
  gate.reportError(error, facts);
  done(error instanceof Error ? error : new Error(String(error)));
}

// fastify-plugin's markers: no encapsulation, a name, the Fastify major it was written for.
Object.assign(tollgatePlugin, {
  [Symbol.for('skip-override')]: true,
  [Symbol.for('fastify.display-name')]: 'tollgate',
  [Symbol.for('plugin-meta')]: { name: 'tollgate', fastify: '5.x' },
});
