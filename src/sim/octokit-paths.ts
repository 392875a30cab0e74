/** Which requests `@octokit/plugin-throttling` spaces apart, as its own source decides. */
// From @octokit/plugin-throttling 11.0.5 (MIT), src/generated/triggers-notification-paths.ts and
// src/route-matcher.ts: writes to these paths trigger notifications and are spaced 3 s apart.
const TRIGGERS_NOTIFICATION_PATHS = [
  '/orgs/{org}/invitations',
  '/orgs/{org}/invitations/{invitation_id}',
  '/orgs/{org}/teams/{team_slug}/discussions',
  '/orgs/{org}/teams/{team_slug}/discussions/{discussion_number}/comments',
  '/repos/{owner}/{repo}/collaborators/{username}',
  '/repos/{owner}/{repo}/commits/{commit_sha}/comments',
  '/repos/{owner}/{repo}/issues',
  '/repos/{owner}/{repo}/issues/{issue_number}/comments',
  '/repos/{owner}/{repo}/issues/{issue_number}/sub_issue',
  '/repos/{owner}/{repo}/issues/{issue_number}/sub_issues/priority',
  '/repos/{owner}/{repo}/pulls',
  '/repos/{owner}/{repo}/pulls/{pull_number}/comments',
  '/repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies',
  '/repos/{owner}/{repo}/pulls/{pull_number}/merge',
  '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers',
  '/repos/{owner}/{repo}/pulls/{pull_number}/reviews',
  '/repos/{owner}/{repo}/releases',
  '/teams/{team_id}/discussions',
  '/teams/{team_id}/discussions/{discussion_number}/comments',
];

// The plugin's routeMatcher: `{param}` reads as `(?:.+?)`, anything but a slash may follow.
const NOTIFICATION_PATHS = new RegExp(
  `^(?:${TRIGGERS_NOTIFICATION_PATHS.map(
    (path) =>
      `(?:${path
        .split('/')
        .map((part) => (part.startsWith('{') ? '(?:.+?)' : part))
        .join('/')})`,
  ).join('|')})[^/]*$`,
  'i',
);

/** How the throttling plugin groups a request: spaced writes, spaced notification writes, spaced searches, or none. */
export type OctokitSpacing = 'write' | 'notification' | 'search' | 'graphql' | null;

/**
 * The throttling plugin's group for a request (its `wrap-request.js`): a write (any method but
 * GET and HEAD) or a GraphQL request goes through the write group, a write to a path that
 * triggers notifications through the notification group too, a `GET /search/...` through the
 * search group. The plugin's few token-minting requests (its "auth" group) are not in the table.
 * @example
 * import { octokitSpacing } from './octokit-paths.js';
 * octokitSpacing('POST', '/repos/octo/app/issues'); // 'notification'
 * octokitSpacing('GET', '/search/code'); // 'search'
 */
export function octokitSpacing(method: string, path: string): OctokitSpacing {
  const pathname = path.split('?')[0]!;
  if (pathname.startsWith('/graphql')) return 'graphql';
  if (method === 'GET' || method === 'HEAD')
    return method === 'GET' && pathname.startsWith('/search/') ? 'search' : null;
  return NOTIFICATION_PATHS.test(pathname) ? 'notification' : 'write';
}
