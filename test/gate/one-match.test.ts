// Issue 21, item 2: the gate walks one straight line. Every request's path is matched exactly once
// and decided exactly once, with or without the server's facts (`resolveContext`), and `authorize`
// (which would match again) is never called.
import { describe, expect, it } from 'vitest';
import {
  createGate,
  createLimiter,
  createMemoryStore,
  createPolicy,
  type GateAnswer,
  type Policy,
  shippedTables,
  type Token,
} from '../../src/index.js';
import { bearerFacts } from '../support/bearer-facts.js';

const token: Token = {
  kind: 'fine-grained',
  permissions: { issues: 'read' },
  repositories: ['acme/app'],
  user: 'mona',
};
const facts = bearerFacts;
// Allowed, refused for a permission, refused as hidden, a bad path, an unknown endpoint, the
// gate's own `GET /rate_limit`, a HEAD read as GET, a path in another letter case.
const REQUESTS: readonly [string, string][] = [
  ['GET', '/repos/acme/app/issues/events'],
  ['POST', '/repos/acme/app/issues'],
  ['GET', '/repos/acme/secret/issues/events'],
  ['GET', '/repos/acme/app/issues/%2e%2e'],
  ['GET', '/no/such/endpoint'],
  ['GET', '/rate_limit'],
  ['HEAD', '/repos/acme/app/issues/events'],
  ['GET', '/REPOS/acme/app/issues/events'],
];

/** A policy that counts its stages and refuses to be asked the whole question at once. */
function counted(): { policy: Policy; matches: () => number; decisions: () => number } {
  const real = createPolicy(shippedTables());
  let matches = 0;
  let decisions = 0;
  const policy: Policy = {
    tables: real.tables,
    options: real.options,
    match: (request) => {
      matches++;
      return real.match(request);
    },
    decide: (match, asker, context) => {
      decisions++;
      return real.decide(match, asker, context);
    },
    authorize: () => {
      throw new Error('authorize reads the path again: the gate must match once and decide');
    },
  };
  return { policy, matches: () => matches, decisions: () => decisions };
}

const run = async (
  gate: ReturnType<typeof createGate>,
  method: string,
  target: string,
): Promise<GateAnswer> => {
  const answer = await gate.check(facts(method, target));
  if (answer.action === 'pass') await answer.settle?.finish(200);
  return answer;
};

describe('the gate matches once and decides once per request', () => {
  for (const withContext of [false, true]) {
    it(`${withContext ? 'with' : 'without'} resolveContext`, async () => {
      const { policy, matches, decisions } = counted();
      const contexts: string[] = [];
      const gate = createGate({
        policy,
        lookupToken: () => token,
        ...(withContext
          ? {
              resolveContext: async (endpoint: string, params: Readonly<Record<string, string>>) => {
                contexts.push(`${endpoint} ${params.repo ?? ''}`);
                return { visibility: params.repo === 'app' ? ('public' as const) : ('private' as const) };
              },
            }
          : {}),
      });
      const reasons: string[] = [];
      for (const [index, [method, target]] of REQUESTS.entries()) {
        const answer = await run(gate, method, target);
        reasons.push(answer.decision?.reason ?? 'none');
        expect(matches(), `${method} ${target}`).toBe(index + 1);
        expect(decisions(), `${method} ${target}`).toBe(index + 1);
      }
      // The requests really took the different paths through the gate.
      // (`acme/app` is public to the server's facts: any token reads it.)
      const app = withContext ? 'public_resource' : 'allowed';
      expect(reasons).toEqual([
        app,
        'insufficient_permission',
        'not_found',
        'bad_path',
        'unknown_endpoint',
        'public_resource',
        app,
        app,
      ]);
      // The server is asked its facts once per matched request, with the row's own key.
      if (withContext)
        expect(contexts).toEqual([
          'GET /repos/{owner}/{repo}/issues/events app',
          'POST /repos/{owner}/{repo}/issues app',
          'GET /repos/{owner}/{repo}/issues/events secret',
          'GET /rate_limit ',
          'GET /repos/{owner}/{repo}/issues/events app',
          'GET /repos/{owner}/{repo}/issues/events app',
        ]);
    });
  }
});

describe('a policy refusal that counts is charged and settled in one store call', () => {
  it('charges the refusal (primary, points) without holding a slot, in one call; an allowed request takes two', async () => {
    const inner = createMemoryStore();
    let calls = 0;
    const store = new Proxy(inner, {
      get(target, property, receiver) {
        if (property !== 'apply') return Reflect.get(target, property, receiver);
        return (...args: Parameters<typeof inner.apply>) => {
          calls++;
          return target.apply(...args);
        };
      },
    });
    const gate = createGate({ limiter: createLimiter({ store }), lookupToken: () => token });
    const key = gate.limiter.identify(token).key;
    // POST needs issues=write: refused by the policy (403), counted as the service counts it.
    const refused = await gate.check(facts('POST', '/repos/acme/app/issues'));
    expect(refused.action === 'respond' && refused.status).toBe(403);
    expect(calls).toBe(1);
    const after = inner.read(key)!;
    expect(after).toMatchObject({ inFlight: 0, coreUsed: 1 });
    // seed 000: a POST costs 5 points, all in the REST log.
    expect(after.logs?.[0]?.filter((_, i) => i % 2 === 1).reduce((sum, n) => sum + n, 0)).toBe(5);
    expect(refused.action === 'respond' && refused.headers['x-ratelimit-remaining']).toBe('4999');
    // An allowed request: admitted, then completed when the response ends.
    await run(gate, 'GET', '/repos/acme/app/issues/events');
    expect(calls).toBe(3);
    expect(inner.read(key)).toMatchObject({ inFlight: 0, coreUsed: 2 });
  });
});
