// The scanner on small inputs in the style of real code: every way an application calls Octokit's REST methods.
import { describe, expect, it } from 'vitest';
import { currentMethodName, legacyMethodNames } from '../../src/check/octokit-legacy-names.js';
import { octokitRoutes } from '../../src/check/octokit-routes.js';
import { scanSource } from '../../src/check/scan-source.js';

/** Each call as `line METHOD /path` (resolved) or `line ? reason` (unresolved). */
async function scan(code: string, file = 'bot.ts'): Promise<string[]> {
  return scanSource(code, file, await octokitRoutes()).map((call) =>
    call.resolved
      ? `${call.origin.line} ${call.method} ${call.path}`
      : `${call.origin.line} ? ${call.reason}`,
  );
}

describe('scanSource: Octokit without .rest', () => {
  it('finds @octokit/rest, Probot, this.github, actions-toolkit and github-script v4 calls', async () => {
    const code = [
      "const { Octokit } = require('@octokit/rest');",
      'const octokit = new Octokit({ auth });',
      'await octokit.issues.listEventsForRepo({ owner, repo });',
      'app.on("issues.opened", async (context) => { await context.octokit.issues.createComment(context.issue({ body })); });',
      'class Bot { async go() { await this.github.repos.update({ owner, repo }); } }',
      'await tools.github.issues.create({ ...tools.context.repo, title });',
    ].join('\n');
    expect(await scan(code)).toEqual([
      '3 GET /repos/{owner}/{repo}/issues/events',
      '4 POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
      '5 PATCH /repos/{owner}/{repo}',
      '6 POST /repos/{owner}/{repo}/issues',
    ]);
    // A github-script step (v4 and earlier): `github` is the client.
    expect(
      await scan('const { data } = await github.pulls.get({ owner, repo, pull_number });', 'ci.yml'),
    ).toEqual(['1 GET /repos/{owner}/{repo}/pulls/{pull_number}']);
  });

  it('names the call it found as the code spells the client', async () => {
    const calls = scanSource(
      'const gh = github.getOctokit(token);\nawait gh.rest.pulls.get({});\nawait context.octokit.issues.get({});',
      'a.ts',
      await octokitRoutes(),
    );
    expect(calls.map((call) => call.via)).toEqual(['gh.rest.pulls.get', 'context.octokit.issues.get']);
  });

  it('reads method names of older Octokit clients as the endpoint they name today', async () => {
    const code = [
      'await this.github.search.issues({ q });',
      'await this.github.issues.edit({ owner, repo, number, state: "closed" });',
      'await github.repos.createStatus({ owner, repo, sha, state });',
      'await github.pullRequests.getFiles({ owner, repo, number });',
    ].join('\n');
    expect(await scan(code)).toEqual([
      '1 GET /search/issues',
      '2 PATCH /repos/{owner}/{repo}/issues/{issue_number}',
      '3 POST /repos/{owner}/{repo}/statuses/{sha}',
      '4 GET /repos/{owner}/{repo}/pulls/{pull_number}/files',
    ]);
  });

  it('maps every older name to a method today’s Octokit has', async () => {
    const routes = await octokitRoutes();
    for (const [old, today] of legacyMethodNames()) {
      expect(routes.has(old), `${old} is a name of today`).toBe(false);
      expect(routes.has(today), `${old} → ${today}`).toBe(true);
    }
    expect(currentMethodName('gitdata', 'getReference')).toBe('git.getRef');
  });
});

describe('scanSource: any client expression', () => {
  it('follows a function’s result, destructuring, aliases and parameters', async () => {
    const code = [
      'await (await getClient()).rest.pulls.get({});',
      'await github.getOctokit(token).rest.repos.get({});',
      'const { rest } = octokit;',
      'await rest.issues.create({});',
      'const { issues, pulls: p } = octokit.rest;',
      'await issues.addLabels({});',
      'await p.list({});',
      'const gh = context.octokit;',
      'await gh.checks.create({});',
      'module.exports = async ({ github, context }) => { await github.rest.issues.listComments({}); };',
      'const { octokit: { rest: { repos } } } = app;',
      'await repos.getContent({});',
    ].join('\n');
    expect(await scan(code)).toEqual([
      '1 GET /repos/{owner}/{repo}/pulls/{pull_number}',
      '2 GET /repos/{owner}/{repo}',
      '4 POST /repos/{owner}/{repo}/issues',
      '6 POST /repos/{owner}/{repo}/issues/{issue_number}/labels',
      '7 GET /repos/{owner}/{repo}/pulls',
      '9 POST /repos/{owner}/{repo}/check-runs',
      '10 GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
      '12 GET /repos/{owner}/{repo}/contents/{path}',
    ]);
  });

  it('counts a method held in a variable or passed to a function where it is called', async () => {
    const code = [
      'const listFiles = octokit.rest.pulls.listFiles;',
      'const { data } = await listFiles({ owner, repo, pull_number });',
      'await withRetry(octokit.rest.repos.get, { owner, repo });',
      'const update = draft ? octokit.rest.pulls.update : octokit.rest.issues.update;',
      'await update.call(octokit, {});',
    ].join('\n');
    expect(await scan(code)).toEqual([
      '2 GET /repos/{owner}/{repo}/pulls/{pull_number}/files',
      '3 GET /repos/{owner}/{repo}',
      '5 PATCH /repos/{owner}/{repo}/pulls/{pull_number}',
      '5 PATCH /repos/{owner}/{repo}/issues/{issue_number}',
    ]);
  });
});

describe('scanSource: request and paginate', () => {
  it('reads a route as a string, { method, url }, a module constant, or both branches of a conditional', async () => {
    const code = [
      "const EVENTS = 'GET /repos/{owner}/{repo}/issues/events';",
      "const ROUTES = { alert: 'PATCH /repos/{owner}/{repo}/dependabot/alerts/{alert_number}' };",
      "await octokit.request('POST /repos/{owner}/{repo}/issues', {});",
      "await context.octokit.request({ method: 'PATCH', url: '/repos/{owner}/{repo}/code-scanning/alerts/{alert_number}', owner });",
      'await octokit.request(EVENTS, { owner, repo });',
      'await octokit.request(ROUTES.alert, {});',
      "await octokit.request(org ? 'GET /orgs/{org}/repos' : 'GET /user/repos');",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source under test
      'await octokit.paginate(`GET /repos/${owner}/${repo}/pulls`);',
      "await octokit.request('/rate_limit');",
      "await octokit.request('POST https://uploads.example.com/repos/{owner}/{repo}/releases/{release_id}/assets');",
    ].join('\n');
    expect(await scan(code)).toEqual([
      '3 POST /repos/{owner}/{repo}/issues',
      '4 PATCH /repos/{owner}/{repo}/code-scanning/alerts/{alert_number}',
      '5 GET /repos/{owner}/{repo}/issues/events',
      '6 PATCH /repos/{owner}/{repo}/dependabot/alerts/{alert_number}',
      '7 GET /orgs/{org}/repos',
      '7 GET /user/repos',
      '8 GET /repos/{owner}/{repo}/pulls',
      '9 GET /rate_limit',
      '10 POST /repos/{owner}/{repo}/releases/{release_id}/assets',
    ]);
  });

  it('spells URL templates and colon routes as the tables do', async () => {
    const code = [
      'await octokit.rest.actions.deleteActionsCacheByKey({ owner, repo, key });',
      "await octokit.request('GET /orgs/:org/teams/:team_slug');",
      "await octokit.request('GET /repos/{owner}/{repo}/issues?state=open');",
    ].join('\n');
    expect(await scan(code)).toEqual([
      '1 DELETE /repos/{owner}/{repo}/actions/caches',
      '2 GET /orgs/{org}/teams/{team_slug}',
      '3 GET /repos/{owner}/{repo}/issues',
    ]);
  });

  it('counts endpoint.merge options once, where they are made, also through a variable', async () => {
    const code = [
      'const listFilesOptions = client.rest.pulls.listFiles.endpoint.merge({ owner, repo, pull_number });',
      'const files = await client.paginate(listFilesOptions);',
      'await this.github.paginate(this.github.pulls.listCommits.endpoint({ owner, repo, pull_number }));',
      "const options = octokit.request.endpoint.merge('GET /repos/{owner}/{repo}/labels', { owner, repo });",
      'await octokit.paginate(options);',
      'for await (const page of octokit.paginate.iterator(octokit.issues.listForRepo, { owner, repo })) {}',
      'await octokit.paginate(octokit.rest.pulls.listReviews, { owner, repo, pull_number });',
    ].join('\n');
    expect(await scan(code)).toEqual([
      '1 GET /repos/{owner}/{repo}/pulls/{pull_number}/files',
      '3 GET /repos/{owner}/{repo}/pulls/{pull_number}/commits',
      '5 GET /repos/{owner}/{repo}/labels',
      '6 GET /repos/{owner}/{repo}/issues',
      '7 GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews',
    ]);
  });
});

describe('scanSource: what cannot be resolved is listed with the reason', () => {
  it('a route in a parameter, a template hole inside a segment, a route built elsewhere', async () => {
    const code = [
      'export async function call(octokit, route) { return octokit.request(route, {}); }',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source under test
      'await octokit.request(`GET /repos/${fullName}-x/issues`);',
      'await octokit.request(routeFor(kind));',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source under test
      'await octokit.request(`${verb} /user`);',
    ].join('\n');
    expect(await scan(code)).toEqual([
      '1 ? the route is the variable `route`, which has no value in this module (a parameter?)',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source under test
      '2 ? `GET /repos/${fullName}-x/issues` has a hole inside a path segment',
      '3 ? the route is not known (the result of `routeFor()` is not a literal the module spells)',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source under test
      '4 ? `${verb} /user` is not a route (`METHOD /path`)',
    ]);
  });

  it('a computed method name lists the candidates the module shows', async () => {
    const code = [
      "const method = comment ? 'updateComment' : 'createComment';",
      'await github.rest.issues[method]({ owner, repo, body });',
      'export function run(github, methodName) { return github.repos[methodName]({}); }',
      "run(github, 'update'); run(github, 'get');",
      "await github.rest.issues['lock']({});",
    ].join('\n');
    const calls = scanSource(code, 'a.js', await octokitRoutes());
    expect(calls.map((call) => [call.origin.line, call.resolved, call.reason, call.candidates])).toEqual([
      [
        2,
        false,
        'the method name is computed (the variable `method`); 2 candidates in this module',
        [
          'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
          'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}',
        ],
      ],
      [
        3,
        false,
        'the method name is computed (the variable `methodName`); 2 candidates in this module',
        ['GET /repos/{owner}/{repo}', 'PATCH /repos/{owner}/{repo}'],
      ],
      [5, true, undefined, undefined],
    ]);
  });

  it('a method Octokit does not have is one unresolved call with the closest name, and the scan goes on', async () => {
    const code = [
      'await octokit.rest.issues.listEventsForRepos({ owner, repo });',
      'await context.octokit.pulls.lisFiles({});',
      'await octokit.rest.issues.listEventsForRepo({ owner, repo });',
    ].join('\n');
    expect(await scan(code)).toEqual([
      '1 ? no Octokit REST method `issues.listEventsForRepos` (did you mean `issues.listEventsForRepo`?)',
      '2 ? no Octokit REST method `pulls.lisFiles` (did you mean `pulls.listFiles`?)',
      '3 GET /repos/{owner}/{repo}/issues/events',
    ]);
  });
});
