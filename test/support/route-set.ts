// Shared by the matcher's unit and property tests.
import { expect } from 'vitest';
import { type CarefulTree, matchCarefully } from '../../src/routes/match-carefully.js';
import { matchRoute } from '../../src/routes/route-tree.js';
import type { RouteInput, RouteTree } from '../../src/routes/route-types.js';

// A realistic slice of the endpoint table: multi-segment paths and refs, an encoded-slash
// parameter, a static route beside a two-parameter one, and `/repos/{template_owner}/...` beside
// `/repos/{owner}/...` (the same positions under different names).
const ROUTES: readonly RouteInput[] = [
  { method: 'GET', template: '/' },
  { method: 'GET', template: '/repos/{owner}/{repo}' },
  { method: 'GET', template: '/repos/{owner}/{repo}/contents/{path}', multiSegment: 'path' },
  { method: 'PUT', template: '/repos/{owner}/{repo}/contents/{path}', multiSegment: 'path' },
  { method: 'GET', template: '/repos/{owner}/{repo}/readme' },
  { method: 'GET', template: '/repos/{owner}/{repo}/readme/{dir}', multiSegment: 'dir' },
  { method: 'GET', template: '/repos/{owner}/{repo}/git/ref/{ref}', multiSegment: 'ref' },
  { method: 'PATCH', template: '/repos/{owner}/{repo}/git/refs/{ref}', multiSegment: 'ref' },
  { method: 'DELETE', template: '/repos/{owner}/{repo}/git/refs/{ref}', multiSegment: 'ref' },
  { method: 'GET', template: '/repos/{owner}/{repo}/git/matching-refs/{ref}', multiSegment: 'ref' },
  { method: 'POST', template: '/repos/{owner}/{repo}/git/refs' },
  { method: 'GET', template: '/repos/{owner}/{repo}/git/trees/{tree_sha}' },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/environments/{environment_name}/variables/{name}',
    encodedSlash: ['environment_name'],
  },
  { method: 'GET', template: '/repos/{owner}/{repo}/issues/{issue_number}' },
  { method: 'POST', template: '/repos/{owner}/{repo}/issues' },
  { method: 'POST', template: '/repos/{template_owner}/{template_repo}/generate' },
  { method: 'POST', template: '/orgs/{org}/actions/hosted-runners' },
  { method: 'POST', template: '/orgs/{org}/{security_product}/{enablement}' },
  { method: 'PATCH', template: '/orgs/{org}' },
  { method: 'GET', template: '/orgs/{org}/repos' },
  { method: 'GET', template: '/user/repos' },
  { method: 'POST', template: '/user/repos' },
  { method: 'GET', template: '/users/{username}' },
  { method: 'GET', template: '/users/{username}/repos' },
];

/** The routes, `.git` cut from `repo` as the shipped tables ask (seed 000: repo is the name without .git). */
export const ROUTE_SET: readonly RouteInput[] = ROUTES.map((route) =>
  route.template.includes('{repo}') ? { ...route, stripGitSuffix: ['repo'] } : route,
);

/** The static segments of ROUTE_SET's templates (`repos`, `issues`...), each once. */
export const ROUTE_STATICS: readonly string[] = [
  ...new Set(ROUTE_SET.flatMap((route) => route.template.split('/'))),
].filter((part) => part !== '' && !part.startsWith('{'));

/** The fast path's answer for `method target` must equal the careful path's, params compared by value. */
export function expectCarefulAnswer(tree: RouteTree, method: string, target: string): void {
  const fast = matchRoute(tree, method, target);
  const careful = matchCarefully(tree as unknown as CarefulTree, method, target);
  expect(fast.kind === 'matched' ? { ...fast, params: { ...fast.params } } : fast).toEqual(
    careful.kind === 'matched' ? { ...careful, params: { ...careful.params } } : careful,
  );
}
