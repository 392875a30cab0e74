// The request mix every scenario runs: concrete requests for every endpoint of the shipped table,
// every token kind, public and private contexts, shuffled with a seeded PRNG (no Math.random), plus
// the batched measurement helper the scenarios share. A single repeated path flatters every router
// 3-4x (CONVENTIONS.md, "Bench"), so no path here is measured alone.

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

const pick = (rng, list) => list[Math.floor(rng() * list.length)];

/** Fisher-Yates with the seeded PRNG. */
export function shuffle(list, rng) {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

// ---- parameter values --------------------------------------------------------------------------

const OWNERS = ['acme', 'Acme', 'octo-org', 'Octo-Org', 'hello-world', 'mona', 'example-co', 'tollgate-dev'];
const REPOS = ['app', 'api-server', 'docs', 'Website', 'infra', 'design-system', 'cli'];
const USERS = ['octocat', 'mona-lisa', 'hubot', 'jdoe', 'a-reviewer'];
const TEAMS = ['platform', 'core-reviewers', 'security', 'docs-team'];
const BRANCHES = ['main', 'develop', 'feature-login', 'release-2.4', 'hotfix-17'];
const FILES = [
  'src/index.ts',
  'docs/guide/intro.md',
  'packages/core/src/router.ts',
  'lib/utils.js',
  '.service/workflows/ci.yml',
  'README.md',
];
const DIRS = ['docs', 'packages/core', 'docs/api/v2'];
const GIT_REFS = ['heads/main', 'heads/feature/login-form', 'tags/v1.2.0', 'heads/release/2.4'];
const SHAS = [
  '6dcb09b5b57875f334f61aebed695e2e4193db5e',
  'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
  '7638417db6d59f3c431d3e1f261cc637155684cd',
];
const QUERIES = ['?per_page=50', '?page=2&per_page=100', '?state=open&sort=updated', '?ref=main', '?q=bug'];

function numberValue(rng) {
  return String(1 + Math.floor(rng() * 99_999));
}

/** A realistic value for `{name}` in `template`; multi-segment params span 2-3 segments. */
function paramValue(name, template, rng) {
  switch (name) {
    case 'org':
    case 'owner':
    case 'template_owner':
    case 'repo_owner':
      return pick(rng, OWNERS);
    case 'repo': {
      const repo = pick(rng, REPOS);
      return rng() < 0.2 ? `${repo}.git` : repo;
    }
    case 'template_repo':
    case 'repo_name':
      return pick(rng, REPOS);
    case 'enterprise':
      return pick(rng, ['acme-corp', 'octo-enterprise']);
    case 'username':
      return pick(rng, USERS);
    case 'team_slug':
      return pick(rng, TEAMS);
    case 'branch':
      return pick(rng, BRANCHES);
    case 'path':
      return pick(rng, FILES);
    case 'dir':
      return pick(rng, DIRS);
    case 'ref':
      if (/\/git\/(ref|refs|matching-refs)\/\{ref\}$/.test(template)) return pick(rng, GIT_REFS);
      return pick(rng, ['main', 'v1.4.0', SHAS[0], 'develop']);
    case 'basehead':
      return pick(rng, ['main...feature-login', 'v1.0.0...v1.1.0', 'octocat:main...acme:develop']);
    case 'commit_sha':
    case 'file_sha':
    case 'tag_sha':
    case 'tree_sha':
      return pick(rng, SHAS);
    case 'subject_digest':
      return `sha256:${pick(rng, SHAS)}${pick(rng, SHAS).slice(0, 24)}`;
    case 'environment_name':
      return pick(rng, ['production', 'staging', 'preview%2Feu-west', 'github-pages']);
    case 'name':
      return template.includes('/labels/')
        ? pick(rng, ['bug', 'good%20first%20issue', 'enhancement'])
        : pick(rng, ['NODE_ENV', 'DEPLOY_TARGET', 'API_URL']);
    case 'language':
      return pick(rng, ['javascript', 'python', 'go']);
    case 'archive_format':
      return 'zip';
    case 'security_product':
      return pick(rng, ['dependency_graph', 'secret_scanning', 'dependabot_alerts']);
    case 'enablement':
      return pick(rng, ['enable_all', 'disable_all']);
    case 'cluster':
      return pick(rng, ['prod-eu-1', 'staging-us']);
    case 'tag':
      return pick(rng, ['v1.0.0', 'v2.3.1']);
    case 'key_id':
    case 'advisory_id':
      return name === 'advisory_id' ? 'GHSA-xxxx-4vj5-9qfp' : numberValue(rng);
    default:
      if (name.endsWith('_id') || name.endsWith('_number')) return numberValue(rng);
      return `${name.replace(/_/g, '-')}-${Math.floor(rng() * 9)}`;
  }
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

/**
 * The bench's clock, in ms. Default `cpu`: this process's CPU time (`process.cpuUsage`, user +
 * system, 1 us resolution), which a shared machine's other processes do not inflate: on a busy
 * 2-core box wall-clock batch times swing 3-4x with the neighbours' load. `BENCH_CLOCK=wall` uses
 * `performance.now()`. On an idle machine the two agree (the measured code is single-threaded;
 * the CPU time also counts V8's GC and compiler threads, which only makes the figures lower).
 */
export function benchClock() {
  if (process.env.BENCH_CLOCK === 'wall') return { name: 'wall', now: () => performance.now() };
  return {
    name: 'cpu',
    now: () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    },
  };
}

/** Sink for every task's results: printed at the end so nothing is dead code. */
export const sink = { value: 0 };

/**
 * Runs tasks with tinybench, each call of a task function handling `batch` consecutive requests of
 * the mix (one timer read per batch, not per request: a timer read costs about as much as a route
 * lookup). `run(start, count)` returns a number folded into the checksum; it may return a promise.
 *
 * The tasks run in `rounds` interleaved rounds (order rotated each round), so a change of machine
 * load hits every task alike; each round's figure is the median batch time (robust to preemption on
 * a shared machine), and a task's headline is its best round. Every round's figure is kept.
 */
export async function measure(Bench, { time, warmupTime, tasks, size, rounds = 3 }) {
  const now = benchClock().now;
  const cursors = tasks.map(() => 0);
  const perRound = tasks.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ time, warmupTime, warmupIterations: 8, iterations: 16, now });
    const order = tasks.map((_, i) => (i + round) % tasks.length);
    for (const i of order) {
      const task = tasks[i];
      const batch = task.batch;
      const fn = task.async
        ? async () => {
            sink.value = (sink.value + (await task.run(cursors[i], batch))) % 1e15;
            cursors[i] = (cursors[i] + batch) % size;
          }
        : () => {
            sink.value = (sink.value + task.run(cursors[i], batch)) % 1e15;
            cursors[i] = (cursors[i] + batch) % size;
          };
      bench.add(task.name, fn, { beforeAll: () => globalThis.gc?.() });
    }
    await bench.run();
    for (const t of bench.tasks) {
      const i = tasks.findIndex((task) => task.name === t.name);
      const r = t.result;
      if (r === undefined || r.error !== undefined) throw r?.error ?? new Error(`${t.name}: no result`);
      const batch = tasks[i].batch;
      perRound[i].push({
        medianOpsPerSec: Math.round((batch * 1000) / r.latency.p50),
        meanOpsPerSec: Math.round((batch * 1000) / r.latency.mean),
        rmePercent: Number(r.latency.rme.toFixed(2)),
        samples: r.latency.samples.length,
      });
    }
  }
  const results = {};
  for (const [i, task] of tasks.entries()) {
    const best = perRound[i].reduce((a, b) => (b.medianOpsPerSec > a.medianOpsPerSec ? b : a));
    results[task.name] = {
      opsPerSec: best.medianOpsPerSec,
      nsPerOp: Number((1e9 / best.medianOpsPerSec).toFixed(1)),
      meanOpsPerSec: best.meanOpsPerSec,
      meanNsPerOp: Number((1e9 / best.meanOpsPerSec).toFixed(1)),
      rmePercent: best.rmePercent,
      samples: perRound[i].reduce((n, r) => n + r.samples, 0),
      batch: task.batch,
      rounds: perRound[i].map((r) => r.medianOpsPerSec),
    };
  }
  return results;
}

/** `a / b` on the headline (median-based) ops/s and on the mean-based ops/s. */
export function ratioOf(results, a, b, digits = 2) {
  const round = (x) => Number(x.toFixed(digits));
  return {
    median: round(results[a].opsPerSec / results[b].opsPerSec),
    mean: round(results[a].meanOpsPerSec / results[b].meanOpsPerSec),
  };
}

/** Splits `{ name: { median, mean } }` into the headline ratios and the mean-based ones. */
export function splitRatios(pairs) {
  const ratios = {};
  const ratiosMean = {};
  for (const [name, r] of Object.entries(pairs)) {
    ratios[name] = r.median;
    ratiosMean[name] = r.mean;
  }
  return { ratios, ratiosMean };
}
