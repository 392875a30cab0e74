/** One endpoint of the table compiled: its entry for the evaluator and its route for the matcher. */
import type { RouteInput } from '../routes/route-types.js';
import { checkPermissions, checkScopes } from './check-requirements.js';
import type { Catalog } from './compile-catalog.js';
import { formatAcceptedPermissions, formatAcceptedScopes } from './header-format.js';
import type { MergedEndpoint } from './merge-overlays.js';
import type { Report } from './table-sources.js';
import type { CompiledScopes, EndpointEntry, RawPermissionsTable, RawScopeRequirement } from './tables.js';
import { HTTP_METHODS, type HttpMethod, type TokenKind } from './types.js';

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
 * The repository a request is about: an `{owner}/{repo}` pair anywhere in the path (also
 * `/orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}`), else the pair right after `/repos`.
 * `['repos', '{template_owner}', '{template_repo}', 'generate']` gives `['template_owner', 'template_repo']`.
 */
function repositoryParamsOf(segments: readonly string[]): readonly [string, string] | null {
  const pair = segments.findIndex((segment, k) => segment === '{owner}' && segments[k + 1] === '{repo}');
  if (pair >= 0) return ['owner', 'repo'];
  if (segments[0] === 'repos' && segments[1]?.startsWith('{') && segments[2]?.startsWith('{'))
    return [segments[1].slice(1, -1), segments[2].slice(1, -1)];
  return null;
}

/**
 * Compiles one merged endpoint, reporting what is wrong with it; null when it cannot be compiled.
 * @example
 * import { shippedSources } from 'tollgate/policy';
 * import { compileCatalog } from './compile-catalog.js';
 * import { compileEndpoint } from './compile-endpoint.js';
 * import { mergeOverlays } from './merge-overlays.js';
 * import { issueReporter } from './table-sources.js';
 * const report = issueReporter([]);
 * const catalog = compileCatalog(shippedSources.scopes, report);
 * const rules = shippedSources.permissions.value.rules ?? {};
 * const key = 'GET /user/repository_invitations';
 * compileEndpoint(key, mergeOverlays(shippedSources).get(key)!, rules, catalog, report)?.entry.charge.cost; // 1
 */
export function compileEndpoint(
  key: string,
  { raw, source, defaults = {} }: MergedEndpoint,
  rules: NonNullable<RawPermissionsTable['rules']>,
  catalog: Catalog,
  report: Report,
): { entry: EndpointEntry; route: RouteInput } | null {
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
    return null;
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
    return null;
  }
  const fineGrained = raw.fine_grained === 'none' ? null : raw.fine_grained;
  if (fineGrained) checkPermissions(catalog, report, source, [...path, 'fine_grained'], fineGrained);
  const classicRaw = raw.classic ?? defaults.classic ?? 'not_shown';
  checkScopes(catalog, report, source, [...path, 'classic'], raw.classic);
  checkScopes(catalog, report, source, [...path, 'classic_private'], raw.classic_private);
  const segments = template.split('/').slice(1);
  const last = segments[segments.length - 1] ?? '';
  const multi = (rules.multi_segment_params ?? []).find(
    (rule) => last === `{${rule.param}}` && isMultiSegment(segments, rule.before),
  );
  const params = segments.filter((s) => s.startsWith('{')).map((s) => s.slice(1, -1));
  const encodedSlash = (rules.encoded_slash_params ?? []).filter((name) => params.includes(name));
  const contentRule = rules.content;
  const classic = compileScopes(classicRaw);
  const classicPrivate = raw.classic_private === undefined ? classic : compileScopes(raw.classic_private);
  const entry: EndpointEntry = {
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
    charge: {
      resource: raw.resource ?? defaults.resource ?? 'core',
      cost:
        raw.cost ??
        rules.cost?.[method] ??
        (method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? 1 : 5),
      content:
        raw.content ??
        (contentRule?.methods.includes(method) === true && contentRule.last_segments.includes(last)),
      countsPrimary: raw.counts_against_primary ?? true,
    },
    pageSize: raw.page_size ?? null,
    resourceless: params.length === 0,
    repositoryParams: repositoryParamsOf(segments),
    listed: raw.listed ?? [],
    source: raw.source ?? source.file,
    acceptedPermissionsHeader: fineGrained === null ? null : formatAcceptedPermissions(fineGrained),
    acceptedScopesHeader: classic.requirement === null ? null : formatAcceptedScopes(classic.requirement),
    acceptedScopesPrivateHeader:
      classicPrivate.requirement === null ? null : formatAcceptedScopes(classicPrivate.requirement),
  };
  const route: RouteInput = {
    method,
    template,
    // seed 000, "Conventions for every endpoint": repo is the name without the .git extension.
    ...(template.includes('{repo}') ? { stripGitSuffix: ['repo'] } : {}),
    ...(multi === undefined ? {} : { multiSegment: multi.param }),
    ...(encodedSlash.length === 0 ? {} : { encodedSlash }),
  };
  return { entry, route };
}
