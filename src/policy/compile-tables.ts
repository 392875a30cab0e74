import type { Issue, SourcePosition } from '../core/issue.js';
import { issuesError } from '../core/issue.js';
import { didYouMean } from '../core/suggest.js';
import { type RouteInput, tryCompileRoutes } from '../routes/index.js';
import { formatAcceptedPermissions, formatAcceptedScopes } from './header-format.js';
import { closeScopes } from './scope-closure.js';
import type {
  CompiledScopes,
  EndpointEntry,
  PermissionInfo,
  PolicyTables,
  RawEndpoint,
  RawPermissionsTable,
  RawScopeRequirement,
  RawScopesTable,
} from './tables.js';
import { HTTP_METHODS, type HttpMethod, type Requirement, type TokenKind } from './types.js';

/** A table value with where it came from; `locate` gives positions when the source has them. */
export interface TableSource<T> {
  readonly file: string;
  readonly value: T;
  readonly locate?: (path: readonly (string | number)[], options?: { key?: boolean }) => SourcePosition;
}

/** What `compileTables` reads. */
export interface TableSources {
  readonly permissions: TableSource<RawPermissionsTable>;
  readonly scopes: TableSource<RawScopesTable>;
  /** Applied in order: an entry replaces the fields it names of an existing endpoint, or adds one. */
  readonly overlays?: readonly TableSource<RawPermissionsTable>[];
}

const DEFAULT_TOKENS: readonly TokenKind[] = [
  'classic',
  'oauth-app',
  'fine-grained',
  'app-user',
  'app-installation',
];

function compileScopes(raw: RawScopeRequirement): CompiledScopes {
  if (raw === 'not_shown') return { requirement: null, shown: false };
  if (raw === 'none') return { requirement: null, shown: true };
  return { requirement: raw, shown: true };
}

function isMultiSegment(segments: readonly string[], before: string): boolean {
  const wanted = before.split('/');
  const head = segments.slice(-1 - wanted.length, -1);
  return head.length === wanted.length && head.every((segment, i) => segment === wanted[i]);
}

/**
 * Compiles the tables, returning every problem found; `tables` is present only when there are none.
 * @example
 * import { compileTables } from 'tollgate';
 * const { tables, issues } = compileTables({ permissions: { file: 'p.yaml', value }, scopes: { file: 's.yaml', value: scopes } });
 */
export function compileTables(sources: TableSources): { tables?: PolicyTables; issues: Issue[] } {
  const issues: Issue[] = [];
  const report = (
    source: TableSource<unknown>,
    path: (string | number)[],
    issue: Omit<Issue, 'source' | 'path'>,
    key = false,
  ) =>
    issues.push({
      ...issue,
      path,
      source: source.locate?.(path, { key }) ?? { file: source.file, line: 0, column: 0 },
    });

  const scopesTable = sources.scopes.value;
  const permissions = new Map<string, PermissionInfo>();
  for (const [slug, info] of Object.entries(scopesTable.permissions))
    permissions.set(slug, { slug, ...info });
  const scopeNames = Object.keys(scopesTable.scopes);
  for (const [scope, { implies }] of Object.entries(scopesTable.scopes)) {
    implies.forEach((implied, i) => {
      if (!Object.hasOwn(scopesTable.scopes, implied))
        report(sources.scopes, ['scopes', scope, 'implies', i], {
          code: 'unknown_scope',
          message: `scope \`${scope}\` implies unknown scope \`${implied}\`${didYouMean(implied, scopeNames)}`,
          hint: 'list the implied scope under `scopes` too',
        });
    });
  }
  const scopeClosure = closeScopes(scopesTable.scopes);

  const base = sources.permissions.value;
  const rules = base.rules ?? {};
  const merged = new Map<
    string,
    { raw: RawEndpoint; source: TableSource<RawPermissionsTable>; defaults: RawPermissionsTable['defaults'] }
  >();
  for (const source of [sources.permissions, ...(sources.overlays ?? [])]) {
    for (const [key, raw] of Object.entries(source.value.endpoints)) {
      const previous = merged.get(key);
      merged.set(
        key,
        previous === undefined
          ? { raw, source, defaults: source.value.defaults ?? base.defaults }
          : { raw: { ...previous.raw, ...raw }, source, defaults: previous.defaults },
      );
    }
  }

  const checkRequirement = (
    source: TableSource<unknown>,
    path: (string | number)[],
    requirement: Requirement,
  ) => {
    requirement.forEach((alternative, i) => {
      for (const [slug, level] of Object.entries(alternative)) {
        const info = permissions.get(slug);
        if (info === undefined)
          report(
            source,
            [...path, i, slug],
            {
              code: 'unknown_permission',
              message: `unknown permission \`${slug}\`${didYouMean(slug, [...permissions.keys()])}`,
              hint: 'permissions are listed in data/scopes.yaml',
            },
            true,
          );
        else if (!info.levels.includes(level))
          report(source, [...path, i, slug], {
            code: 'unknown_level',
            message: `permission \`${slug}\` has no level \`${level}\``,
            hint: `valid levels: ${info.levels.join(', ')}`,
          });
      }
    });
  };
  const checkScopes = (
    source: TableSource<unknown>,
    path: (string | number)[],
    requirement: RawScopeRequirement | undefined,
  ) => {
    if (requirement === undefined || typeof requirement === 'string') return;
    requirement.forEach((alternative, i) => {
      alternative.forEach((scope, j) => {
        if (!scopeClosure.has(scope))
          report(source, [...path, i, j], {
            code: 'unknown_scope',
            message: `unknown scope \`${scope}\`${didYouMean(scope, scopeNames)}`,
            hint: 'scopes are listed in data/scopes.yaml',
          });
      });
    });
  };

  const endpoints: EndpointEntry[] = [];
  const routeInputs: RouteInput[] = [];
  const endpointKeys: string[] = [];
  for (const [key, { raw, source, defaults = {} }] of merged) {
    const path = ['endpoints', key];
    const space = key.indexOf(' ');
    const method = key.slice(0, space) as HttpMethod;
    const template = key.slice(space + 1);
    if (!HTTP_METHODS.includes(method) || !template.startsWith('/')) {
      report(
        source,
        path,
        {
          code: 'invalid_endpoint',
          message: `invalid endpoint key \`${key}\``,
          hint: `write \`METHOD /path\` with METHOD one of ${HTTP_METHODS.join(', ')}`,
        },
        true,
      );
      continue;
    }
    if (raw.fine_grained === undefined) {
      report(
        source,
        path,
        {
          code: 'missing_field',
          message: `endpoint \`${key}\` has no \`fine_grained\` requirement`,
          hint: 'write the requirement, or `none` when no fine-grained permission reaches it',
        },
        true,
      );
      continue;
    }
    const fineGrained = raw.fine_grained === 'none' ? null : raw.fine_grained;
    if (fineGrained) checkRequirement(source, [...path, 'fine_grained'], fineGrained);
    const classicRaw = raw.classic ?? defaults.classic ?? 'not_shown';
    checkScopes(source, [...path, 'classic'], raw.classic);
    checkScopes(source, [...path, 'classic_private'], raw.classic_private);
    const segments = template.split('/').slice(1);
    const last = segments[segments.length - 1] ?? '';
    const multi = (rules.multi_segment_params ?? []).find(
      (rule) => last === `{${rule.param}}` && isMultiSegment(segments, rule.before),
    );
    const params = segments.filter((s) => s.startsWith('{')).map((s) => s.slice(1, -1));
    const encodedSlash = (rules.encoded_slash_params ?? []).filter((name) => params.includes(name));
    // The repository a request is about: an `{owner}/{repo}` pair anywhere in the path (also
    // `/orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}`), else the pair right after `/repos`.
    const pair = segments.findIndex((segment, k) => segment === '{owner}' && segments[k + 1] === '{repo}');
    const repositoryParams: readonly [string, string] | null =
      pair >= 0
        ? ['owner', 'repo']
        : segments[0] === 'repos' && segments[1]?.startsWith('{') && segments[2]?.startsWith('{')
          ? [segments[1].slice(1, -1), segments[2].slice(1, -1)]
          : null;
    const contentRule = rules.content;
    const classic = compileScopes(classicRaw);
    const classicPrivate = raw.classic_private === undefined ? classic : compileScopes(raw.classic_private);
    endpoints.push({
      key,
      method,
      template,
      fineGrained,
      classic,
      classicPrivate,
      tokens: raw.tokens ?? defaults.tokens ?? DEFAULT_TOKENS,
      tokensShown: raw.tokens_shown ?? true,
      public: raw.public ?? defaults.public ?? false,
      ownerOnly: raw.owner_only ?? defaults.owner_only ?? false,
      additional: raw.additional ?? false,
      cost:
        raw.cost ??
        rules.cost?.[method] ??
        (method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? 1 : 5),
      content:
        raw.content ??
        (contentRule?.methods.includes(method) === true && contentRule.last_segments.includes(last)),
      resource: raw.resource ?? defaults.resource ?? 'core',
      countsAgainstPrimary: raw.counts_against_primary ?? true,
      pageSize: raw.page_size ?? null,
      resourceless: params.length === 0,
      repositoryParams,
      listed: raw.listed ?? [],
      source: raw.source ?? source.file,
      acceptedPermissionsHeader: fineGrained === null ? null : formatAcceptedPermissions(fineGrained),
      acceptedScopesHeader: classic.requirement === null ? null : formatAcceptedScopes(classic.requirement),
      acceptedScopesPrivateHeader:
        classicPrivate.requirement === null ? null : formatAcceptedScopes(classicPrivate.requirement),
    });
    endpointKeys.push(key);
    routeInputs.push({
      method,
      template,
      // seed 000, "Conventions for every endpoint": repo is the name without the .git extension.
      ...(template.includes('{repo}') ? { stripGitSuffix: ['repo'] } : {}),
      ...(multi === undefined ? {} : { multiSegment: multi.param }),
      ...(encodedSlash.length === 0 ? {} : { encodedSlash }),
    });
  }
  if (issues.length > 0) return { issues };
  const compiled = tryCompileRoutes(routeInputs);
  if (compiled.tree === undefined) {
    // Each refused route is reported where its endpoint was written.
    for (const problem of compiled.issues) {
      const key = problem.route < 0 ? undefined : endpointKeys[problem.route];
      const owner = key === undefined ? undefined : merged.get(key);
      if (owner === undefined || key === undefined)
        report(sources.permissions, ['endpoints'], { code: problem.code, message: problem.message });
      else report(owner.source, ['endpoints', key], { code: problem.code, message: problem.message }, true);
    }
    return { issues };
  }
  return { tables: { endpoints, routes: compiled.tree, scopeClosure, permissions }, issues };
}

/** Like `compileTables`, but throws one TollgateError (code TOLLGATE_INVALID_TABLE) listing every problem. */
export function compileTablesOrThrow(sources: TableSources): PolicyTables {
  const { tables, issues } = compileTables(sources);
  if (tables === undefined) {
    throw issuesError('TOLLGATE_INVALID_TABLE', issues, 'the tables');
  }
  return tables;
}
