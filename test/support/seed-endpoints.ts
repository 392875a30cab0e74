// Reads seed 000's endpoint tables and its Authentication table into facts. Each Authentication cell
// is read through a fixed dictionary of readings: a cell whose text is not in it fails loudly.
import type { AuthFact, EndpointFact, PrimaryFact, SeedFact } from './seed-facts.js';

const ALL_KINDS = 'classic,oauth-app,fine-grained,app-user,app-installation';
/** `?` marks a kind whose acceptance the seed says is "not shown" (tollgate accepts it by default). */
const FINE_KINDS_NOT_SHOWN = 'classic,oauth-app,?fine-grained,?app-user,?app-installation';

type Op = { method: string; read: boolean };
type Reading<T> = (op: Op) => T;

/** Classic-scope cells: requirement for any resource, for a private one, and whether public data needs none. */
const CLASSIC: Record<
  string,
  Reading<{ classic: string; classicPrivate: string | null; public: boolean }>
> = {
  'admin:org (plus repo if the repository is private)': () => ({
    classic: 'admin:org',
    classicPrivate: 'admin:org+repo',
    public: false,
  }),
  'admin:org (plus repo if private)': () => ({
    classic: 'admin:org',
    classicPrivate: 'admin:org+repo',
    public: false,
  }),
  repo: () => ({ classic: 'repo', classicPrivate: null, public: false }),
  'notifications or repo (repo needed to reach issues and commits)': () => ({
    classic: 'notifications|repo',
    classicPrivate: null,
    public: false,
  }),
  'admin:enterprise': () => ({ classic: 'admin:enterprise', classicPrivate: null, public: false }),
  'read:org (GET), write:org (PATCH)': (op) => ({
    classic: op.method === 'GET' ? 'read:org' : 'write:org',
    classicPrivate: null,
    public: false,
  }),
  // The scope for private resources is not given; public resources need none (public=yes).
  'none when only public resources are requested': () => ({
    classic: 'not_shown',
    classicPrivate: null,
    public: true,
  }),
  'the scope required: not shown': () => ({ classic: 'not_shown', classicPrivate: null, public: false }),
};

/** Fine-grained cells. */
const FINE: Record<string, Reading<string>> = {
  'Variables, organization, read': () => 'organization_variables:read',
  'Variables, organization, write': () => 'organization_variables:write',
  'Variables organization write and Metadata repository read': () =>
    'organization_variables:write+metadata:read',
  'Variables, repository, read (list, get) or write (create, update, delete)': (op) =>
    op.read ? 'variables:read' : 'variables:write',
  'Environments, repository, read (list, get) or write (create, update, delete)': (op) =>
    op.read ? 'environments:read' : 'environments:write',
  'none: not usable with fine-grained personal access tokens': () => 'none',
  none: () => 'none',
  'Administration, organization, read (GET) or write (PATCH)': (op) =>
    op.method === 'GET' ? 'organization_administration:read' : 'organization_administration:write',
  'Issues, repository, read': () => 'issues:read',
  'Issues read or Pull requests read (either one suffices)': () => 'issues:read|pull_requests:read',
};

/** "Other token kinds" cells: the kinds accepted and whether an organization owner is required. */
const OTHER: Record<string, { tokens: string; owner: boolean }> = {
  'which fine-grained token types are accepted: not shown': { tokens: FINE_KINDS_NOT_SHOWN, owner: false },
  'fine-grained token types accepted: not shown': { tokens: FINE_KINDS_NOT_SHOWN, owner: false },
  'not usable with app user access tokens or app installation access tokens; classic personal access token only':
    {
      tokens: 'classic',
      owner: false,
    },
  'classic personal access token only': { tokens: 'classic', owner: false },
  // The classic column gives the classic requirement, so classic kinds are accepted too.
  'accepted: app user access tokens, app installation access tokens, fine-grained personal access tokens': {
    tokens: ALL_KINDS,
    owner: false,
  },
  'not usable with app user access tokens, app installation access tokens or fine-grained personal access tokens; caller must be an authenticated organization owner':
    { tokens: 'classic,oauth-app', owner: true },
};

/** The Authentication row (its "Endpoint group" cell) that governs an endpoint of 000's tables. */
export function authGroup(method: string, path: string): string | null {
  if (path.startsWith('/orgs/{org}/actions/variables')) {
    if (path.endsWith('/repositories/{repository_id}'))
      return 'Organization variables: add or remove one selected repository';
    return method === 'GET'
      ? 'Organization variables: list, get, list selected repositories'
      : 'Organization variables: create, update, delete, set selected repositories';
  }
  if (/^\/repos\/\{owner\}\/\{repo\}\/actions\/(organization-)?variables/.test(path)) {
    return 'Repository variables and repository view of organization variables';
  }
  if (path.includes('/environments/{environment_name}/variables')) return 'Environment variables';
  if (path.startsWith('/notifications') || path.endsWith('/notifications')) return 'Notifications (all)';
  if (path.startsWith('/enterprises/')) return 'Enterprise pattern configurations';
  if (path === '/orgs/{org}/secret-scanning/pattern-configurations')
    return 'Organization pattern configurations';
  if (path === '/repos/{owner}/{repo}/issues/events') return 'Issue events: list for repository';
  if (path.endsWith('/issues/events/{event_id}') || path.endsWith('/issues/{issue_number}/events')) {
    return 'Issue events: get one, list for issue';
  }
  if (path.startsWith('/orgs/{org}/migrations')) return 'Organization migrations (all)';
  return null;
}

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());
}

function pick<T>(dict: Record<string, T>, text: string, where: string): T {
  const value = dict[text];
  if (value === undefined) throw new Error(`${where}: no reading for \`${text}\``);
  return value;
}

/**
 * Parses seed 000: every row of the endpoint tables (## Endpoints), its page size, and the
 * Authentication row that governs it.
 * @example interpretSeed000(text).filter((f) => f.kind === 'endpoint').length // 40
 */
export function interpretSeed000(text: string): SeedFact[] {
  const lines = text.split('\n');
  const endpoints: EndpointFact[] = [];
  const primary: PrimaryFact[] = [];
  const authRows = new Map<string, { lineNo: number; row: string[] }>();
  let chapter = '';
  let header: string[] | null = null;
  lines.forEach((line, index) => {
    const lineNo = index + 1;
    if (line.startsWith('## ')) chapter = line.slice(3).trim();
    if (!line.startsWith('|')) {
      header = null;
      return;
    }
    const row = cells(line);
    if (header === null) {
      header = row;
      return;
    }
    if (row.every((c) => /^-+$/.test(c))) return;
    if (chapter === 'Endpoints' && header[0] === 'Method' && header[1] === 'Path') {
      const [method = '', path = ''] = row;
      const query = row[header.indexOf('Query')] ?? '';
      const page = /per_page \(max (\d+), default (\d+)\)/.exec(query);
      const ref = `000:${lineNo}`;
      endpoints.push({
        kind: 'endpoint',
        ref,
        method,
        path,
        pageDefault: page ? Number(page[2]) : null,
        pageMax: page ? Number(page[1]) : null,
      });
      const notes = row[header.indexOf('Notes')] ?? '';
      if (notes.includes('Does not count against the primary limit')) {
        primary.push({ kind: 'counts-against-primary', ref, method, path, counts: false });
      }
    } else if (chapter === 'Authentication' && header[0] === 'Endpoint group') {
      authRows.set(row[0] ?? '', { lineNo, row });
    }
  });

  const auth: AuthFact[] = [];
  for (const e of endpoints) {
    const group = authGroup(e.method, e.path);
    if (group === null) {
      if (e.path !== '/rate_limit')
        throw new Error(`${e.ref}: no Authentication row governs ${e.method} ${e.path}`);
      // 000 has no Authentication row for GET /rate_limit. tollgate's reading (DESIGN.md section 3): it
      // answers every caller, anonymous included, and needs nothing. Cited at its endpoint row.
      auth.push({
        kind: 'auth',
        ref: e.ref,
        method: e.method,
        path: e.path,
        classic: 'nothing',
        classicPrivate: null,
        fine: 'nothing',
        tokens: ALL_KINDS,
        public: true,
        owner: false,
      });
      continue;
    }
    const found = authRows.get(group);
    if (found === undefined) throw new Error(`seed 000 has no Authentication row \`${group}\``);
    const where = `000:${found.lineNo}`;
    const [, classicCell = '', fineCell = '', otherCell = ''] = found.row;
    let other = otherCell;
    // "same as above": the nearest row above with its own text.
    for (let n = found.lineNo - 1; other === 'same as above'; n--) other = cells(lines[n - 1] ?? '')[3] ?? '';
    const op: Op = { method: e.method, read: e.method === 'GET' };
    const classic = pick(CLASSIC, classicCell, where)(op);
    const tokens = pick(OTHER, other, where);
    auth.push({
      kind: 'auth',
      ref: where,
      method: e.method,
      path: e.path,
      classic: classic.classic,
      classicPrivate: classic.classicPrivate,
      fine: pick(FINE, fineCell, where)(op),
      tokens: tokens.tokens,
      public: classic.public,
      owner: tokens.owner,
    });
  }
  return [...endpoints, ...auth, ...primary];
}
