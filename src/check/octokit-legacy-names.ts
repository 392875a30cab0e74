/**
 * Method names of older Octokit clients (`github` 13-14, `@octokit/rest` 15-17, 2017-2020), by the
 * name the same endpoint has today: real apps pinned to those versions still call
 * `this.github.issues.edit(...)` or `context.github.search.issues(...)`. Hand-written from the
 * renames those versions announced ("octokit.issues.edit() has been renamed to octokit.issues.update()"),
 * each checked against today's table by a test; only names whose endpoint is unchanged are here.
 */

// Old namespaces: `octokit.pullRequests.get` is today's `octokit.pulls.get`.
const LEGACY_NAMESPACES: Readonly<Record<string, string>> = { pullRequests: 'pulls', gitdata: 'git' };

const LEGACY_METHODS: Readonly<Record<string, string>> = {
  'issues.edit': 'issues.update',
  'issues.getComments': 'issues.listComments',
  'issues.editComment': 'issues.updateComment',
  'issues.getForRepo': 'issues.listForRepo',
  'issues.getEventsTimeline': 'issues.listEventsForTimeline',
  'issues.getLabels': 'issues.listLabelsForRepo',
  'issues.getIssueLabels': 'issues.listLabelsOnIssue',
  'issues.addAssigneesToIssue': 'issues.addAssignees',
  'issues.removeAssigneesFromIssue': 'issues.removeAssignees',
  'issues.replaceAllLabels': 'issues.setLabels',
  'issues.replaceLabels': 'issues.setLabels',
  'issues.getMilestones': 'issues.listMilestones',
  'search.issues': 'search.issuesAndPullRequests',
  'repos.createStatus': 'repos.createCommitStatus',
  'repos.getStatuses': 'repos.listCommitStatusesForRef',
  'repos.listStatusesForRef': 'repos.listCommitStatusesForRef',
  'repos.getContents': 'repos.getContent',
  'repos.createOrUpdateFile': 'repos.createOrUpdateFileContents',
  'repos.createFile': 'repos.createOrUpdateFileContents',
  'repos.updateFile': 'repos.createOrUpdateFileContents',
  'repos.getBranches': 'repos.listBranches',
  'repos.getCommits': 'repos.listCommits',
  'repos.getReleases': 'repos.listReleases',
  'repos.getTags': 'repos.listTags',
  'repos.getContributors': 'repos.listContributors',
  'repos.getCollaborators': 'repos.listCollaborators',
  'repos.getForOrg': 'repos.listForOrg',
  'repos.getAll': 'repos.listForAuthenticatedUser',
  'repos.list': 'repos.listForAuthenticatedUser',
  'repos.getArchiveLink': 'repos.downloadArchive',
  'repos.createHook': 'repos.createWebhook',
  'repos.listHooks': 'repos.listWebhooks',
  'repos.getHook': 'repos.getWebhook',
  'repos.deleteHook': 'repos.deleteWebhook',
  'repos.getDeployments': 'repos.listDeployments',
  'pulls.getAll': 'pulls.list',
  'pulls.getFiles': 'pulls.listFiles',
  'pulls.getCommits': 'pulls.listCommits',
  'pulls.getReviews': 'pulls.listReviews',
  'pulls.getComments': 'pulls.listReviewComments',
  'pulls.listComments': 'pulls.listReviewComments',
  'pulls.createComment': 'pulls.createReviewComment',
  'pulls.createReviewRequest': 'pulls.requestReviewers',
  'orgs.getMembers': 'orgs.listMembers',
  'orgs.checkMembership': 'orgs.checkMembershipForUser',
  'orgs.getTeams': 'teams.list',
  'users.getForUser': 'users.getByUsername',
  'users.getOrgs': 'orgs.listForAuthenticatedUser',
  'apps.getInstallationRepositories': 'apps.listReposAccessibleToInstallation',
  'apps.listRepos': 'apps.listReposAccessibleToInstallation',
  'apps.createInstallationToken': 'apps.createInstallationAccessToken',
  'git.getReference': 'git.getRef',
  'git.createReference': 'git.createRef',
  'git.updateReference': 'git.updateRef',
  'git.deleteReference': 'git.deleteRef',
  'activity.getNotifications': 'activity.listNotificationsForAuthenticatedUser',
};

/** The namespaces older clients had that today's do not (`pullRequests`, `gitdata`). */
export const legacyNamespaces: readonly string[] = Object.keys(LEGACY_NAMESPACES);

/**
 * Today's `namespace.method` for a name an older Octokit client used, or undefined.
 * @example
 * import { currentMethodName } from './octokit-legacy-names.js';
 * currentMethodName('issues', 'edit'); // 'issues.update'
 * currentMethodName('pullRequests', 'getFiles'); // 'pulls.listFiles'
 */
export function currentMethodName(namespace: string, method: string): string | undefined {
  const current = LEGACY_NAMESPACES[namespace] ?? namespace;
  return (
    LEGACY_METHODS[`${current}.${method}`] ?? (current === namespace ? undefined : `${current}.${method}`)
  );
}

/**
 * Every old name of the table with today's name, for the test that checks each against the table.
 * @example
 * import { legacyMethodNames } from './octokit-legacy-names.js';
 * legacyMethodNames().get('search.issues'); // 'search.issuesAndPullRequests'
 */
export function legacyMethodNames(): ReadonlyMap<string, string> {
  return new Map(Object.entries(LEGACY_METHODS));
}
