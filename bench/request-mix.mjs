// The request mix every scenario runs: concrete requests for every endpoint of the shipped table,
// every token kind, public and private contexts, shuffled with a seeded PRNG (no Math.random). A
// single repeated path flatters every router 3-4x (CONVENTIONS.md, "Bench"), so no path here is
// measured alone. The parameter values are in mix-values.mjs, the timing helpers in measure.mjs.

import { OWNERS, paramValue, pick, QUERIES, REPOS } from './mix-values.mjs';

/** mulberry32: a small seeded PRNG, deterministic across runs and machines. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher-Yates with the seeded PRNG. */
export function shuffle(list, rng) {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

// ---- tokens ------------------------------------------------------------------------------------

const SCOPE_SETS = [
  ['repo'],
  ['repo', 'admin:org', 'notifications'],
  ['public_repo', 'read:org'],
  ['repo', 'read:org', 'workflow'],
  ['admin:org', 'admin:enterprise', 'repo', 'user', 'notifications'],
  ['read:user', 'user:email'],
  ['notifications'],
  [],
];

function permissionSet(catalog, rng) {
  const out = { metadata: 'read' };
  const broad = rng() < 0.5;
  for (const [slug, info] of catalog) {
    if (!broad && rng() < 0.6) continue;
    out[slug] = info.levels.includes('write') && rng() < (broad ? 0.8 : 0.4) ? 'write' : 'read';
  }
  return out;
}

function repositorySelection(rng) {
  if (rng() < 0.5) return 'all';
  const names = [];
  const count = 1 + Math.floor(rng() * 4);
  for (let i = 0; i < count; i++) names.push(`${pick(rng, OWNERS).toLowerCase()}/${pick(rng, REPOS)}`);
  return names;
}

/** Token shapes per kind (permissions and scopes), identity facts added per request. */
function tokenPool(kind, catalog, rng) {
  const pool = [];
  for (let i = 0; i < 12; i++) {
    if (kind === 'classic' || kind === 'oauth-app')
      pool.push({ kind, scopes: SCOPE_SETS[i % SCOPE_SETS.length] });
    else if (kind === 'client-credentials' || kind === 'anonymous') pool.push({ kind });
    else
      pool.push({ kind, permissions: permissionSet(catalog, rng), repositories: repositorySelection(rng) });
  }
  return pool;
}

/**
 * A token as a token parser would build it: one object literal per kind, so tokens of a kind share
 * one hidden class (6 shapes in all), with identity facts for the limiter spread over `n` callers.
 * (Building tokens with `{ ...pooled, ...facts }` instead gives nearly every token its own hidden
 * class, which makes every property read on a token a megamorphic miss: a bench artefact that
 * costs authorize about 0.25 us a read on this machine, not something a server's tokens do.)
 */
function makeToken(kind, base, n) {
  switch (kind) {
    case 'classic':
    case 'oauth-app':
      return { kind, scopes: base.scopes, user: `user-${n}` };
    case 'fine-grained':
    case 'app-user':
      return { kind, permissions: base.permissions, repositories: base.repositories, user: `user-${n}` };
    case 'app-installation':
      return {
        kind,
        permissions: base.permissions,
        repositories: base.repositories,
        installation: `inst-${n}`,
        repositoriesCount: 1 + (n % 120),
        usersCount: n % 300,
      };
    case 'workflow':
      return {
        kind,
        permissions: base.permissions,
        repositories: base.repositories,
        repository: `owner-${n}/repo-${n % 7}`,
      };
    case 'client-credentials':
      return { kind, app: `app-${n}` };
    default:
      return { kind, ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` };
  }
}

// ---- templates for the peers -------------------------------------------------------------------

/** The template's last parameter when the table's rules let it span several segments. */
export function multiSegmentParam(template, rules) {
  for (const { before, param } of rules?.multi_segment_params ?? [])
    if (template.endsWith(`/${before}/{${param}}`)) return param;
  return null;
}

/** `{param}` -> `:param`; a last multi-segment param -> `*` (find-my-way wildcard, keyMatch2 `/*`). */
export function colonTemplate(template, rules) {
  const multi = multiSegmentParam(template, rules);
  let out = template;
  if (multi !== null) out = `${out.slice(0, -(multi.length + 2))}*`;
  return out.replace(/\{([^}]+)\}/g, ':$1');
}

/** A requirement alternative as one string: `issues=read&pull_requests=read`, `scope:repo`, `any`. */
export function alternativeSubjects(entry) {
  const subjects = [];
  for (const alt of entry.fineGrained ?? []) {
    const keys = Object.keys(alt).sort();
    subjects.push(keys.length === 0 ? 'any' : keys.map((k) => `${k}=${alt[k]}`).join('&'));
  }
  for (const alt of entry.classic.requirement ?? [])
    subjects.push(alt.length === 0 ? 'any' : alt.map((s) => `scope:${s}`).join('&'));
  if (subjects.length === 0) subjects.push(entry.ownerOnly ? 'owner' : 'any');
  return [...new Set(subjects)];
}

// ---- the mix -----------------------------------------------------------------------------------

export const MIX_KINDS = [
  'classic',
  'fine-grained',
  'app-user',
  'app-installation',
  'workflow',
  'oauth-app',
  'client-credentials',
  'anonymous',
];

/**
 * Builds the mix: for every endpoint, one request per token kind (8 per endpoint), each with fresh
 * parameter values, a query string on about a quarter of them, public or private context. Every
 * request is checked against `policy` (it must match its own endpoint) before it is used.
 */
export function buildRequestMix({ tables, policy, seed = 0x70119a7e, identities = 4096 }) {
  const rng = prng(seed);
  const catalog = [...tables.permissions.values()].map((p) => [p.slug, p]);
  const pools = new Map(MIX_KINDS.map((kind) => [kind, tokenPool(kind, catalog, rng)]));
  const items = [];
  let serial = 0;
  for (const entry of tables.endpoints) {
    const subjects = alternativeSubjects(entry);
    for (let k = 0; k < MIX_KINDS.length; k++) {
      const kind = MIX_KINDS[k];
      const path = entry.template.replace(/\{([^}]+)\}/g, (_, name) => paramValue(name, entry.template, rng));
      const query = entry.method === 'GET' && rng() < 0.25 ? pick(rng, QUERIES) : '';
      const identityNumber = Math.floor(rng() * identities);
      const token = makeToken(kind, pick(rng, pools.get(kind)), identityNumber);
      const context = { visibility: rng() < 0.4 ? 'public' : 'private', organizationOwner: rng() < 0.3 };
      const request =
        rng() < 0.3
          ? { method: entry.method, path: path + query, apiVersion: '2022-11-28' }
          : { method: entry.method, path: path + query };
      items.push({
        serial: serial++,
        key: entry.key,
        entry,
        method: entry.method,
        request,
        // The peers get the path without its query string, stripped here, outside the timing.
        bare: path,
        token,
        context,
        subject: subjects[k % subjects.length],
      });
    }
  }
  // Check every request matches its own endpoint, and nothing else.
  const wrong = [];
  for (const item of items) {
    const decision = policy.authorize(item.request, item.token, item.context);
    item.status = decision.status;
    item.reason = decision.reason;
    if (decision.endpoint !== item.key)
      wrong.push(`${item.request.method} ${item.request.path} -> ${decision.endpoint ?? decision.reason}`);
  }
  if (wrong.length > 0)
    throw new Error(
      `request mix: ${wrong.length} requests miss their endpoint:\n  ${wrong.slice(0, 20).join('\n  ')}`,
    );
  shuffle(items, rng);
  return items;
}

/**
 * The mix with token objects no policy has read yet. A policy freezes a token on its first read
 * and keeps its view on it; a token frozen by another policy (the mix's own check, an earlier run)
 * can take no view and is found through a WeakMap instead. A server has one policy: each timed
 * policy gets copies it reads first. The copies share the frozen scope and permission parts.
 */
export function withFreshTokens(items) {
  return items.map((item) => ({ ...item, token: { ...item.token } }));
}

/** What the mix covers, for the printout and results.json. */
export function describeMix(items, tables) {
  const kinds = new Map();
  const reasons = new Map();
  let withQuery = 0;
  let withGit = 0;
  let multiSegment = 0;
  let publicCount = 0;
  for (const item of items) {
    kinds.set(item.token.kind, (kinds.get(item.token.kind) ?? 0) + 1);
    if (item.request.path.includes('?')) withQuery++;
    if (/\/repos\/[^/]+\/[^/]+\.git(\/|$)/.test(item.bare)) withGit++;
    if (/\/(contents|readme|git\/refs?|git\/matching-refs)\/[^?]*\/[^?]*/.test(item.bare)) multiSegment++;
    if (item.context.visibility === 'public') publicCount++;
  }
  for (const item of items) reasons.set(item.reason, (reasons.get(item.reason) ?? 0) + 1);
  return {
    requests: items.length,
    endpoints: new Set(items.map((i) => i.key)).size,
    tableEndpoints: tables.endpoints.length,
    distinctPaths: new Set(items.map((i) => i.request.path)).size,
    tokenKinds: Object.fromEntries(kinds),
    withQuery,
    withDotGit: withGit,
    multiSegment,
    public: publicCount,
    private: items.length - publicCount,
    reasons: Object.fromEntries([...reasons].sort((a, b) => b[1] - a[1])),
  };
}

// ---- measurement -------------------------------------------------------------------------------
