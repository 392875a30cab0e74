// Child of bench/instructions.mjs (group `gate`): `node bench/middleware-ops.mjs <op> <count>`
// runs one op over the http scenario's own requests (its 100 tokens, its four paths, its roomy
// limits), warmed up first, then `count` more times. The two middlewares run on plain objects in
// place of node's request and response, so what they count is their own work without node's
// parser, writer and header store; the gate's parts split the tollgate middleware's count. Both
// middlewares' counts include the harness (the two objects, a Promise and its await: about 1,200
// instructions a request, counted once with a middleware that does nothing), which narrows their ratio.
import { createLimiter, createMemoryStore, createPolicy, shippedTables } from '../dist/index.js';
import { tollgate } from '../dist/node.js';
import { gateOf, peerStack, roomy, tokens } from './http-servers.mjs';

const WARM_UP = 200_000;
const PATHS = ['app', 'api', 'docs', 'site'].map((repo) => `/repos/acme/${repo}/issues/events`);
const SECRETS = [...tokens.keys()];
const TOKENS = [...tokens.values()];

// What the middlewares read of node's objects, and nothing more: headers set are only counted.
const socket = { remoteAddress: '127.0.0.1', destroyed: false, once() {} };
class Response {
  socket = socket;
  destroyed = false;
  writableFinished = false;
  statusCode = 200;
  headersSet = 0;
  onClose = null;
  setHeader() {
    this.headersSet++;
    return this;
  }
  on(event, listener) {
    if (event === 'close') this.onClose = listener;
    return this;
  }
  writeHead() {
    return this;
  }
  end() {
    return this;
  }
}
const requestOf = (k) => ({
  method: 'GET',
  url: PATHS[k & 3],
  headers: { host: '127.0.0.1', authorization: `Bearer ${SECRETS[k]}` },
  socket,
});

// One request through a middleware, as node:http would run it: the handler answers at once and
// the response closes. A middleware that holds a slot (`settles`) must have asked to hear of the
// close, which settles it: the bench's roomy concurrency limit would not show a leak.
function through(guard, k, settles) {
  const res = new Response();
  return new Promise((resolve) => {
    guard(requestOf(k), res, () => {
      res.writableFinished = true;
      if (settles && res.onClose === null) throw new Error('middleware-ops: no slot settled on close');
      res.onClose?.call(res);
      resolve(res.headersSet);
    });
  });
}

let sum = 0;
let k = 0;
const middleware = (guard, settles) => async (count) => {
  for (let j = 0; j < count; j++) {
    sum += await through(guard, k, settles);
    if (++k === 100) k = 0;
  }
};
const facts = SECRETS.map((secret, i) => {
  const headers = { host: '127.0.0.1', authorization: `Bearer ${secret}` };
  return { method: 'GET', target: PATHS[i & 3], header: (name) => headers[name], remoteAddress: '127.0.0.1' };
});
const limiterOp = (windowModes) => {
  const limiter = createLimiter({ store: createMemoryStore(), config: roomy, windowModes });
  const identities = TOKENS.map((token) => limiter.identify(token));
  return (count) => {
    for (let j = 0; j < count; j++) {
      const verdict = limiter.admit({ identity: identities[k], resource: 'core', cost: 1 });
      sum += verdict.remaining;
      limiter.complete(verdict.ticket, 200, 0);
      if (++k === 100) k = 0;
    }
  };
};
// The gate's check and the settlement of its slot, without an adapter.
const gateOp = (gate) => (count) => {
  for (let j = 0; j < count; j++) {
    const answer = gate.check(facts[k]);
    sum += answer.headers['x-ratelimit-used'].length;
    answer.settle.finish(200);
    if (++k === 100) k = 0;
  }
};
const BUCKETS = {
  rest_points: 'bucket',
  graphql_points: 'bucket',
  content_per_minute: 'bucket',
  content_per_hour: 'bucket',
};

// Each op made only in the process that runs it: a process that has made several limiters
// compiles their calls differently (see the README's allocation figures).
const OPS = {
  'tollgate middleware (node adapter)': () => middleware(tollgate(gateOf()), true),
  'peer-stack middleware': () => middleware(peerStack(), false),
  'the gate: check, then settle': () => gateOp(gateOf()),
  'the same, without the CPU share (measureCpu: false)': () => gateOp(gateOf({ measureCpu: false })),
  'the policy: authorize': () => {
    const policy = createPolicy(shippedTables());
    return (count) => {
      for (let j = 0; j < count; j++) {
        sum += policy.authorize({ method: 'GET', path: PATHS[k & 3] }, TOKENS[k]).status;
        if (++k === 100) k = 0;
      }
    };
  },
  'the limiter: admit + complete': () => limiterOp(undefined),
  'the same, its windowed rules in buckets': () => limiterOp(BUCKETS),
};

const [name, given] = process.argv.slice(2);
if (name === '--list') {
  console.log(JSON.stringify(Object.keys(OPS)));
  process.exit(0);
}
const op = OPS[name]?.();
const count = Number(given);
if (op === undefined || !Number.isInteger(count) || count < 0) {
  console.error(`middleware-ops: usage: <op> <count>; ops: ${Object.keys(OPS).join(', ')}`);
  process.exit(2);
}
await op(WARM_UP);
await op(count);
console.log(`checksum ${sum}`);
