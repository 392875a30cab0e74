// Child of bench/instructions.mjs: `node bench/instruction-ops.mjs <op> <count>` builds the
// mix and every matcher, warms the op up, then runs it `count` more times over the mix. Run twice
// under cachegrind with two counts, the difference of the totals over the difference of the counts
// is the op's instructions per request, with the setup and the warm-up cancelled out.
// Its loops are its own copies of bench/policy.mjs's tasks, not those tasks: run after that
// scenario's setup (its same-answer check calls every peer first), the same op's count moved by
// up to 25% between runs (find-my-way 9,419 and 10,242; authorize 5,601 and 6,165); alone, as
// here, by under 2% (authorize 6,093-6,193 over three runs) one day, by 9% another (5,651-6,158
// over six runs of one build, with V8's hash and random seeds fixed or not): compare over several runs.
import * as rootEntry from '../dist/index.js';
import * as policyEntry from '../dist/policy.js';
import * as routesEntry from '../dist/routes.js';
import { buildRouter } from './policy.mjs';
import { buildRequestMix, withFreshTokens } from './request-mix.mjs';
import { buildSegmentTrie } from './segment-trie.mjs';

const WARM_UP = 400_000;

const lib = { ...rootEntry, ...policyEntry, ...routesEntry };
const tables = lib.shippedTables();
const rules = lib.shippedSources.permissions.value.rules;
const items = withFreshTokens(buildRequestMix({ tables, policy: lib.createPolicy(tables) }));
const policy = lib.createPolicy(tables);
const router = buildRouter(tables, rules);
const trie = buildSegmentTrie(tables);
// As the policy bench's diagnostic row: each route's decision built before the run.
const prebuilt = [];
for (const item of items) {
  const matched = policy.match(item.request);
  if (matched.kind === 'endpoint' && prebuilt[matched.route] === undefined)
    prebuilt[matched.route] = policy.authorize(item.request, item.token, item.context);
}
const NO_DECISION = policy.authorize({ method: 'GET', path: '/no/such/path' }, { kind: 'anonymous' });

const size = items.length;
let k = 0;
let sum = 0;
// One loop per op, as the timed bench writes them: a shared loop calling an op function would
// put one megamorphic call on every side of the ratios.
const OPS = {
  'tollgate authorize': (count) => {
    for (let j = 0; j < count; j++) {
      const item = items[k];
      const decision = policy.authorize(item.request, item.token, item.context);
      sum += decision.status + decision.message.length;
      if (++k === size) k = 0;
    }
  },
  'tollgate match, then a prebuilt decision': (count) => {
    for (let j = 0; j < count; j++) {
      const item = items[k];
      const matched = policy.match(item.request);
      const decision = matched.kind === 'endpoint' ? prebuilt[matched.route] : NO_DECISION;
      sum += decision.status + decision.message.length;
      if (++k === size) k = 0;
    }
  },
  'tollgate matchRoute only': (count) => {
    for (let j = 0; j < count; j++) {
      const item = items[k];
      const match = lib.matchRoute(tables.routes, item.method, item.request.path);
      sum += match.kind === 'matched' ? match.route : 1;
      if (++k === size) k = 0;
    }
  },
  'find-my-way find': (count) => {
    for (let j = 0; j < count; j++) {
      const item = items[k];
      const found = router.find(item.method, item.bare);
      sum += found === null ? 1 : found.store.index;
      if (++k === size) k = 0;
    }
  },
  'a plain segment trie': (count) => {
    for (let j = 0; j < count; j++) {
      const item = items[k];
      const found = trie(item.method, item.request.path);
      sum += found === null ? 1 : found.route;
      if (++k === size) k = 0;
    }
  },
};

const [name, given] = process.argv.slice(2);
if (name === '--list') {
  console.log(JSON.stringify(Object.keys(OPS)));
  process.exit(0);
}
const op = OPS[name];
const count = Number(given);
if (op === undefined || !Number.isInteger(count) || count < 0) {
  console.error(`instruction-ops: usage: <op> <count>; ops: ${Object.keys(OPS).join(', ')}`);
  process.exit(2);
}
op(WARM_UP);
op(count);
console.log(`checksum ${sum}`);
