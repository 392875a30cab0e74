// The gate every server of the contract suite runs: tokens spelled in their secrets, visibility in
// a header, and small limits so each case reaches its rule in a few requests.
import {
  createGate,
  createLimiter,
  createMemoryStore,
  type Gate,
  type GateOptions,
  type Token,
} from '../../src/index.js';
import { defaultLimits } from '../../src/limits/default-limits.js';
import type { LimitsConfig } from '../../src/limits/limits-config.js';

const shipped = defaultLimits();

/** Users: 6 requests per hour; REST points 20 per minute; content 3 per minute; CPU 100 ms per minute. */
export const smallLimits: LimitsConfig = {
  ...shipped,
  primary: {
    ...shipped.primary,
    callers: { ...shipped.primary.callers, user: { ...shipped.primary.callers.user, limit: 6 } },
  },
  secondary: {
    ...shipped.secondary,
    points: { ...shipped.secondary.points, rest: 20 },
    content: { ...shipped.secondary.content, perMinute: 3 },
    cpu: { ...shipped.secondary.cpu, totalMs: 100 },
  },
};

/**
 * A secret names its token: `fine-grained:<user>:issues=write,contents=read[:owner/repo,...]`,
 * `classic:<user>:repo,notifications`, `installation:<id>:issues=read`. Anything else is unknown.
 */
export function tokenOfSecret(secret: string): Token | null {
  const [kind, who = '', grants = '', repos] = secret.split(':');
  const list = grants === '' ? [] : grants.split(',');
  if (kind === 'classic') return { kind: 'classic', scopes: list, user: who };
  const permissions = Object.fromEntries(list.map((grant) => grant.split('='))) as Record<
    string,
    'read' | 'write'
  >;
  const repositories = repos === undefined ? 'all' : repos.split(',');
  if (kind === 'fine-grained') return { kind: 'fine-grained', permissions, repositories, user: who };
  if (kind === 'installation')
    return {
      kind: 'app-installation',
      permissions,
      repositories,
      installation: who,
      repositoriesCount: 1,
      usersCount: 1,
    };
  return null;
}

/** A fresh gate over a fresh memory store. */
export function testGate(options: Partial<GateOptions> = {}, config: LimitsConfig = smallLimits): Gate {
  return createGate({
    limiter: createLimiter({ store: createMemoryStore(), config }),
    // `slow:<secret>` answers after 300 ms; `broken` fails, as a token store that is down would.
    lookupToken: (secret) => {
      if (secret === 'broken') return Promise.reject(new Error('token store down'));
      if (secret.startsWith('slow:'))
        return new Promise((resolve) => setTimeout(() => resolve(tokenOfSecret(secret.slice(5))), 300));
      return tokenOfSecret(secret);
    },
    resolveContext: (_endpoint, _params, facts) => ({
      visibility: facts.header('x-test-visibility') === 'public' ? 'public' : 'private',
    }),
    ...options,
  });
}

/** Requests the store holds in flight for the identity of `secret` (read from the store itself). */
export async function inFlight(gate: Gate, secret: string): Promise<number> {
  const token = tokenOfSecret(secret)!;
  const state = await gate.limiter.store.read(gate.limiter.identify(token).key);
  return state?.inFlight ?? 0;
}
