/** Routes as code spells them for Octokit's `request`: `GET /repos/{owner}/{repo}`, a bare path, URL templates, colon parameters. */
import { HOLE } from './scan-values.js';

/** A route read: its method and path template, or why it is not one. */
export type ReadRoute = { readonly method: string; readonly path: string } | { readonly reason: string };

// `GET /path`, also with a full URL (`POST https://uploads.example.com/path`): the path is the route.
const ROUTE = /^([A-Za-z]+)\s+(?:[a-z][a-z0-9+.-]*:\/\/[^/\s]+)?(\/\S*)$/i;
const WHOLE_HOLE = new RegExp(`^${HOLE}([^${HOLE}]*)${HOLE}$`);
const ANY_HOLE = new RegExp(`${HOLE}([^${HOLE}]*)${HOLE}`, 'g');
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * A path as the tables spell it: Octokit's URL template query part dropped
 * (`/repos/{owner}/{repo}/actions/caches{?key,ref}` → `/repos/{owner}/{repo}/actions/caches`), a
 * query string dropped, colon parameters as braces (`/orgs/:org/teams/:team_slug` →
 * `/orgs/{org}/teams/{team_slug}`), a template hole that is a whole segment as a parameter
 * (`/repos/${owner}/...` → `/repos/{owner}/...`). Null when a hole is part of a segment only.
 * @example
 * import { normalizePath } from './scan-route.js';
 * normalizePath('/orgs/:org/teams/:team_slug'); // '/orgs/{org}/teams/{team_slug}'
 */
export function normalizePath(path: string): string | null {
  const bare = path.replace(/\{[?&][^}]*\}/g, '').replace(/[?#].*$/, '');
  const segments = bare.split('/').map((segment) => {
    if (segment.startsWith(':') && /^:[A-Za-z_][\w-]*$/.test(segment)) return `{${segment.slice(1)}}`;
    const hole = WHOLE_HOLE.exec(segment);
    if (hole !== null) return `{${hole[1]}}`;
    return segment;
  });
  const joined = segments.join('/');
  return joined.includes(HOLE) ? null : joined;
}

/**
 * Reads one route string as Octokit does: `METHOD /path` or a bare `/path` (a GET).
 * @example
 * import { readRoute } from './scan-route.js';
 * readRoute('DELETE /repos/{owner}/{repo}/actions/caches{?key,ref}'); // { method: 'DELETE', path: '/repos/{owner}/{repo}/actions/caches' }
 */
export function readRoute(text: string): ReadRoute {
  const trimmed = text.trim();
  const spelled = ROUTE.exec(trimmed);
  const method = spelled === null ? 'GET' : spelled[1]!.toUpperCase();
  const raw = spelled === null ? (trimmed.startsWith('/') ? trimmed : null) : spelled[2]!;
  if (raw === null || trimmed.startsWith(HOLE) || !METHODS.has(method))
    return { reason: `\`${shown(trimmed)}\` is not a route (\`METHOD /path\`)` };
  const path = normalizePath(raw);
  if (path === null) return { reason: `\`${shown(trimmed)}\` has a hole inside a path segment` };
  return { method, path };
}

/**
 * A value with its holes shown as `${name}`, for messages.
 * @example
 * import { shown } from './scan-route.js';
 * shown('GET \u0001route\u0001'); // 'GET ${route}'
 */
export function shown(text: string): string {
  return text.replace(ANY_HOLE, '$${$1}');
}
