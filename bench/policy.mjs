// Scenario "policy": tollgate's authorize (match + evaluate + headers) beside find-my-way's bare
// find() and casbin's enforceSync with a keyMatch2 model of the same table, over the same mix; and
// the table compile, timed apart from the hot path. Diagnostic rows for issue 21's floor: the
// policy's match with a prebuilt decision (with and without the first reads of its inputs),
// find-my-way plus those reads, and find-my-way plus a same-shape answer.
import { newEnforcer, newModelFromString, StringAdapter } from 'casbin';
import FindMyWay from 'find-my-way';
import { measure, ratioOf, splitRatios } from './measure.mjs';
import { timeCompile } from './policy-compile.mjs';
import { buildSameWorkPeer } from './policy-peer.mjs';
import { alternativeSubjects, colonTemplate, withFreshTokens } from './request-mix.mjs';

const CASBIN_MODEL = `
[request_definition]
r = sub, obj, act

[policy_definition]
p = sub, obj, act

[policy_effect]
e = some(where (p.eft == allow))

[matchers]
m = r.sub == p.sub && keyMatch2(r.obj, p.obj) && r.act == p.act
`;

/** find-my-way over the endpoint table: `{param}` -> `:param`, multi-segment last params -> `*`. */
export function buildRouter(tables, rules) {
  const router = FindMyWay({ ignoreTrailingSlash: false });
  const handler = () => {};
  for (const [index, entry] of tables.endpoints.entries())
    router.on(entry.method, colonTemplate(entry.template, rules), handler, { index, key: entry.key, entry });
  return router;
}

/** casbin with one policy line per endpoint and per requirement alternative (subject). */
export async function buildEnforcer(tables, rules) {
  const lines = [];
  for (const entry of tables.endpoints)
    for (const subject of alternativeSubjects(entry))
      lines.push(`p, ${subject}, ${colonTemplate(entry.template, rules)}, ${entry.method}`);
  const enforcer = await newEnforcer(newModelFromString(CASBIN_MODEL), new StringAdapter(lines.join('\n')));
  return { enforcer, policyLines: lines.length };
}

/** Same-answer check before timing: every peer finds every request's endpoint. Also a warm-up. */
function verify({ items, policy, router, enforcer }) {
  let policyMatched = 0;
  let routerMatched = 0;
  let casbinAllowed = 0;
  for (const item of items) {
    if (policy.authorize(item.request, item.token, item.context).endpoint === item.key) policyMatched++;
    const found = router.find(item.method, item.bare);
    if (found !== null && found.store.key === item.key) routerMatched++;
    if (enforcer.enforceSync(item.subject, item.bare, item.method)) casbinAllowed++;
  }
  return { requests: items.length, policyMatched, routerMatched, casbinAllowed };
}

export async function runPolicyBench({
  Bench,
  lib,
  tables,
  rules,
  items,
  time = 1000,
  compile: timeTheCompile = true,
}) {
  items = withFreshTokens(items);
  const policy = lib.createPolicy(tables);
  const router = buildRouter(tables, rules);
  const { enforcer, policyLines } = await buildEnforcer(tables, rules);
  const check = verify({ items, policy, router, enforcer });
  const size = items.length;
  const sameWork = buildSameWorkPeer(tables, rules);
  // Each route's decision, built once from a request of the mix: what authorize would cost if
  // deciding were free (match, then a lookup).
  const prebuilt = [];
  for (const item of items) {
    const matched = policy.match(item.request);
    if (matched.kind === 'endpoint' && prebuilt[matched.route] === undefined)
      prebuilt[matched.route] = policy.authorize(item.request, item.token, item.context);
  }
  let sameWorkMatched = 0;
  for (const item of items) if (sameWork(item.request, item.token)?.endpoint === item.key) sameWorkMatched++;
  const NO_DECISION = policy.authorize({ method: 'GET', path: '/no/such/path' }, { kind: 'anonymous' });

  const tasks = [
    {
      name: 'tollgate authorize',
      batch: 256,
      run(start, count) {
        let sum = 0;
        let k = start;
        for (let j = 0; j < count; j++) {
          const item = items[k];
          const decision = policy.authorize(item.request, item.token, item.context);
          sum += decision.status + decision.message.length;
          if (++k === size) k = 0;
        }
        return sum;
      },
    },
    {
      // Diagnostic: the route match alone (what find-my-way's row compares with), no evaluation.
      name: 'tollgate matchRoute only',
      batch: 256,
      run(start, count) {
        let sum = 0;
        let k = start;
        for (let j = 0; j < count; j++) {
          const item = items[k];
          const match = lib.matchRoute(tables.routes, item.method, item.request.path);
          sum += match.kind === 'matched' ? match.route : 1;
          if (++k === size) k = 0;
        }
        return sum;
      },
    },
    {
      // Diagnostic: the policy's first stage, then a decision built before the run (deciding taken out).
      name: 'diagnostic: match, then a prebuilt decision',
      batch: 256,
      run(start, count) {
        let sum = 0;
        let k = start;
        for (let j = 0; j < count; j++) {
          const item = items[k];
          const matched = policy.match(item.request);
          const decision = matched.kind === 'endpoint' ? prebuilt[matched.route] : NO_DECISION;
          sum += decision.status + decision.message.length;
          if (++k === size) k = 0;
        }
        return sum;
      },
    },
    {
      // Diagnostic: the same, also making the first reads of the request, token and context that the
      // find-my-way row below makes: the floor of authorize with deciding free but its inputs read.
      name: 'diagnostic: match + reading the request, token and context, then a prebuilt decision',
      batch: 256,
      run(start, count) {
        let sum = 0;
        let k = start;
        for (let j = 0; j < count; j++) {
          const item = items[k];
          const request = item.request;
          const matched = policy.match(request);
          const decision = matched.kind === 'endpoint' ? prebuilt[matched.route] : NO_DECISION;
          sum += decision.status + decision.message.length + item.token.kind.length;
          sum += item.context.visibility.length + (request.path.length & 1);
          if (++k === size) k = 0;
        }
        return sum;
      },
    },
    {
      // Diagnostic peer (see buildSameWorkPeer): find-my-way on the same request object, plus a
      // least permission check and an answer of a Decision's fields.
      name: 'diagnostic: find-my-way + a same-shape answer',
      batch: 256,
      run(start, count) {
        let sum = 0;
        let k = start;
        for (let j = 0; j < count; j++) {
          const item = items[k];
          const decision = sameWork(item.request, item.token);
          sum += decision === null ? 1 : decision.status + decision.message.length;
          if (++k === size) k = 0;
        }
        return sum;
      },
    },
    {
      // The inputs authorize must read and find does not: over a mix of 4,280 requests each is a
      // cache miss (the profile's hottest lines in authorize are these first reads).
      name: 'diagnostic: find-my-way + reading the request, token and context',
      batch: 256,
      run(start, count) {
        let sum = 0;
        let k = start;
        for (let j = 0; j < count; j++) {
          const item = items[k];
          const request = item.request;
          const found = router.find(request.method, item.bare);
          sum += (found === null ? 1 : found.store.index) + item.token.kind.length;
          sum += item.context.visibility.length + (request.path.length & 1);
          if (++k === size) k = 0;
        }
        return sum;
      },
    },
    {
      name: 'find-my-way find',
      batch: 256,
      run(start, count) {
        let sum = 0;
        let k = start;
        for (let j = 0; j < count; j++) {
          const item = items[k];
          const found = router.find(item.method, item.bare);
          sum += found === null ? 1 : found.store.index;
          if (++k === size) k = 0;
        }
        return sum;
      },
    },
    {
      name: 'casbin enforceSync',
      batch: 8,
      run(start, count) {
        let sum = 0;
        let k = start;
        for (let j = 0; j < count; j++) {
          const item = items[k];
          if (enforcer.enforceSync(item.subject, item.bare, item.method)) sum++;
          if (++k === size) k = 0;
        }
        return sum;
      },
    },
  ];
  const results = await measure(Bench, { time, warmupTime: 300, tasks, size });
  const { ratios, ratiosMean } = splitRatios({
    'authorize / find-my-way': ratioOf(results, 'tollgate authorize', 'find-my-way find'),
    'authorize / casbin': ratioOf(results, 'tollgate authorize', 'casbin enforceSync', 1),
    'matchRoute only / find-my-way': ratioOf(results, 'tollgate matchRoute only', 'find-my-way find'),
    // Diagnostics for the floor (issue 21): not the ratios, beside them.
    'diagnostic: match + prebuilt decision / find-my-way': ratioOf(
      results,
      'diagnostic: match, then a prebuilt decision',
      'find-my-way find',
    ),
    'diagnostic: match + reading inputs + prebuilt decision / find-my-way': ratioOf(
      results,
      'diagnostic: match + reading the request, token and context, then a prebuilt decision',
      'find-my-way find',
    ),
    'diagnostic: authorize / find-my-way + reading its inputs': ratioOf(
      results,
      'tollgate authorize',
      'diagnostic: find-my-way + reading the request, token and context',
    ),
    'diagnostic: authorize / find-my-way + same-shape answer': ratioOf(
      results,
      'tollgate authorize',
      'diagnostic: find-my-way + a same-shape answer',
    ),
  });
  const compile = timeTheCompile ? timeCompile(lib) : null;
  return {
    results,
    ratios,
    ratiosMean,
    targets: {
      'authorize / find-my-way': { target: '>= 1.5', met: ratios['authorize / find-my-way'] >= 1.5 },
      'authorize / casbin': { target: '> 500', met: ratios['authorize / casbin'] > 500 },
      ...(compile === null ? {} : { 'compile median ms': { target: '< 30', met: compile.medianMs < 30 } }),
    },
    compile,
    check: { ...check, sameWorkMatched, casbinPolicyLines: policyLines },
  };
}
