// Scenario "stack": tollgate's authorize + limiter admit (+ complete) per request, beside a stack of
// find-my-way find + @casl/ability can + rate-limiter-flexible consume (one bucket) doing less:
// one permission checked, no visibility, no repository selection, no headers, one counter.
import { AbilityBuilder, createMongoAbility } from '@casl/ability';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { measure, ratioOf, splitRatios, virtualClock } from './measure.mjs';
import { buildRouter } from './policy.mjs';
import { withFreshTokens } from './request-mix.mjs';

const PERMISSION_KINDS = new Set(['fine-grained', 'app-user', 'app-installation', 'workflow']);
const SCOPED_KINDS = new Set(['classic', 'oauth-app']);

/** The token's class for the stack's rule table: 0 permissions, 1 scopes, 2 none. */
const classOf = (token) => (PERMISSION_KINDS.has(token.kind) ? 0 : SCOPED_KINDS.has(token.kind) ? 1 : 2);

/** CASL abilities from a token: `read`/`write` per permission (write implies read), `use` per scope. */
function abilityOf(token) {
  const { can, build } = new AbilityBuilder(createMongoAbility);
  if (PERMISSION_KINDS.has(token.kind)) {
    for (const [slug, level] of Object.entries(token.permissions)) {
      can('read', slug);
      if (level === 'write') can('write', slug);
    }
  } else if (SCOPED_KINDS.has(token.kind)) {
    for (const scope of token.scopes) can('use', scope);
  }
  can('read', 'public');
  return build();
}

/** The one check the stack makes per endpoint and token class: [action, subject] or null. */
function stackRules(entry) {
  const firstAlternative = entry.fineGrained?.[0];
  const firstPermission = firstAlternative === undefined ? undefined : Object.entries(firstAlternative)[0];
  const firstScope = entry.classic.requirement?.[0]?.[0];
  return [
    firstPermission === undefined ? null : [firstPermission[1], firstPermission[0]],
    firstScope === undefined ? null : ['use', firstScope],
    entry.public ? ['read', 'public'] : null,
  ];
}

// What the gate keeps of a request, kept here too: its match, decision and verdicts reach the
// gate's answer, so they exist. A result only read for a number lets V8 inline the calls and drop
// those objects (escape analysis), which the gate cannot, flattering both the time and the bytes
// per request (the bytes figure moved between 439 and 615 from one process to the next).
const keptAnswers = { matched: null, decision: null, verdict: null, completed: null };

/**
 * tollgate's side of the stack over `items` (tokens fresh to it): one policy, one limiter on a
 * virtual clock, and `tollgateOne(k)`, request k of the mix through the gate's straight line.
 * Also what the bytes figure measures, alone in a process of its own (bench/allocation-child.mjs).
 */
export function tollgateStack({ lib, tables, items }) {
  const policy = lib.createPolicy(tables);
  // A fake clock: 10 ms per call (admit and complete each read it), so the 4,096 identities of the
  // mix see a realistic rate and windows roll over during the run instead of every bucket draining.
  const limiter = lib.createLimiter({ store: lib.createMemoryStore(), clock: virtualClock(10) });
  // Identities are looked up once per token, as the limiter's docs ask; the stack keys by the same.
  const identities = items.map((item) => limiter.identify(item.token));
  const tollgateOne = (k) => {
    const item = items[k];
    // The gate's straight line: match once, decide once, charge from the endpoint's own row.
    const matched = policy.match(item.request);
    const decision = policy.decide(matched, item.token, item.context);
    // A known endpoint is charged by its row's own charge, the form the gate uses (no request object).
    const verdict =
      matched.kind === 'endpoint'
        ? limiter.admit(identities[k], matched.entry.charge)
        : limiter.admit({ identity: identities[k], method: item.method });
    const completed = verdict.ticket === null ? null : limiter.complete(verdict.ticket, decision.status);
    keptAnswers.matched = matched;
    keptAnswers.decision = decision;
    keptAnswers.verdict = verdict;
    keptAnswers.completed = completed;
    return decision.status * 2 + (verdict.allowed ? 1 : 0);
  };

  return { policy, identities, tollgateOne };
}

export async function runStackBench({ Bench, lib, tables, rules, items, time = 1000 }) {
  items = withFreshTokens(items);
  const size = items.length;
  const { policy, identities, tollgateOne } = tollgateStack({ lib, tables, items });
  const keys = identities.map((identity) => identity.key);

  const router = buildRouter(tables, rules);
  const storeRules = new Map(tables.endpoints.map((entry) => [entry.key, stackRules(entry)]));
  const abilityCache = new Map();
  const abilities = items.map((item) => {
    let ability = abilityCache.get(item.token);
    if (ability === undefined) {
      ability = abilityOf(item.token);
      abilityCache.set(item.token, ability);
    }
    return ability;
  });
  const classes = items.map((item) => classOf(item.token));
  // One bucket large enough never to reject: rejections are promise rejections, which would cost
  // the stack more than the bucket check itself.
  const rateLimiter = new RateLimiterMemory({ points: 1e12, duration: 3600 });

  const stackOne = async (k) => {
    const item = items[k];
    const found = router.find(item.method, item.bare);
    let allowed = false;
    let cost = 1;
    if (found !== null) {
      const rule = storeRules.get(found.store.key)[classes[k]];
      allowed = rule !== null && abilities[k].can(rule[0], rule[1]);
      cost = found.store.entry.charge.cost;
    }
    try {
      const res = await rateLimiter.consume(keys[k], cost);
      return (allowed ? 200 : 403) + (res.remainingPoints & 1);
    } catch {
      return 429;
    }
  };

  // Checks (and a warm-up): what each side decided over one pass of the mix.
  const check = { requests: size, tollgateAllowed: 0, tollgateAdmitted: 0, caslAllowed: 0, stackConsumed: 0 };
  for (let k = 0; k < size; k++) {
    const item = items[k];
    if (policy.authorize(item.request, item.token, item.context).allowed) check.tollgateAllowed++;
    if (tollgateOne(k) % 2 === 1) check.tollgateAdmitted++; // status * 2 + admitted
    const answer = await stackOne(k);
    if (answer !== 429) check.stackConsumed++;
    if (answer === 200 || answer === 201) check.caslAllowed++;
  }

  const tasks = [
    {
      name: 'tollgate authorize + admit + complete',
      batch: 256,
      run(start, count) {
        let sum = 0;
        let k = start;
        for (let j = 0; j < count; j++) {
          sum += tollgateOne(k);
          if (++k === size) k = 0;
        }
        return sum;
      },
    },
    {
      name: 'tollgate, awaited per request',
      batch: 256,
      async: true,
      async run(start, count) {
        let sum = 0;
        let k = start;
        for (let j = 0; j < count; j++) {
          sum += await tollgateOne(k);
          if (++k === size) k = 0;
        }
        return sum;
      },
    },
    {
      name: 'find-my-way + casl + rate-limiter-flexible',
      batch: 256,
      async: true,
      async run(start, count) {
        let sum = 0;
        let k = start;
        for (let j = 0; j < count; j++) {
          sum += await stackOne(k);
          if (++k === size) k = 0;
        }
        return sum;
      },
    },
  ];
  const results = await measure(Bench, { time, warmupTime: 300, tasks, size });
  const peer = 'find-my-way + casl + rate-limiter-flexible';
  const { ratios, ratiosMean } = splitRatios({
    'tollgate / stack': ratioOf(results, 'tollgate authorize + admit + complete', peer),
    'tollgate awaited / stack': ratioOf(results, 'tollgate, awaited per request', peer),
  });
  return {
    results,
    ratios,
    ratiosMean,
    targets: { 'tollgate / stack': { target: '>= 3', met: ratios['tollgate / stack'] >= 3 } },
    tollgateOne,
    check,
    note:
      "tollgate's limiter answers synchronously over the memory store, so its main row makes no await; " +
      'rate-limiter-flexible consume returns a promise and is awaited per request. The "awaited" row ' +
      'adds one await per request to tollgate so both sides pay the same microtask cost. Both sides ' +
      'admit every request of the mix (tollgate also completes each admitted one).',
  };
}
