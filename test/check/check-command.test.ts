// `tollgate check` on the bundled examples: answers, formats (JSON, SARIF, annotations, JUnit), sources and idioms.
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { run, scratchFiles } from '../support/cli.js';

const file = scratchFiles('tollgate-check-');

const BOT = ['check', 'examples/ci/bot', '--token', 'examples/ci/bot-token.yaml'];

describe('tollgate check on the examples', () => {
  it('finds the bot’s calls in its code, judges them, and names the least grant and what is unused', async () => {
    const { code, stdout, stderr } = await run(...BOT);
    expect(stderr).toBe('');
    // The unresolved call is not judged: the run does not pass.
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /examples\/ci\/bot\/index\.ts:10:\d+\s+GET \/repos\/\{owner\}\/\{repo\}\/issues\/events\s+allowed/,
    );
    expect(stdout).toMatch(/PATCH \/repos\/\{owner\}\/\{repo\}\/actions\/variables\/\{name\}/);
    expect(stdout).toMatch(/index\.ts:22:\d+\s+octokit\.request \(not resolved\)\s+unresolved/);
    expect(stdout.trimEnd().split('\n').at(-2)).toBe(
      'fine-grained: 5 calls, 1 allowed, 3 uncertain, 1 unresolved; grant (partial: leaves out 1 call not judged): issues=read, variables=write; unused: issues=write (read suffices), contents=read',
    );
  });

  it('fails under --strict while calls are uncertain, even with --allow-unjudged', async () => {
    expect((await run(...BOT, '--allow-unjudged')).code).toBe(0);
    expect((await run(...BOT, '--allow-unjudged', '--strict')).code).toBe(1);
  });

  it('judges a workflow’s github-script calls with the token its permissions grant', async () => {
    const { code, stdout } = await run('check', 'examples/ci/workflows/triage.yml');
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /triage\.yml:17:\d+\s+GET \/repos\/\{owner\}\/\{repo\}\/actions\/variables\s+never\s+.*needs `variables=read`, which a workflow token cannot hold: use an app installation token or a fine-grained token/,
    );
    expect(stdout).toMatch(
      /^label: workflow: 2 calls, 1 allowed, 1 never callable; grant: issues: read \(a workflow token cannot hold variables=read\); unused: issues: write \(read suffices\)$/m,
    );
  });

  it('with --kind and no token gives the least grant, and names the calls the kind can never make', async () => {
    const { code, stdout } = await run('check', 'examples/ci/calls.yaml', '--kind', 'fine-grained');
    expect(code).toBe(1);
    expect(stdout).toMatch(/GET \/notifications\s+never\s+.*does not accept fine-grained tokens/);
    expect(stdout).toMatch(/grant: issues=read, variables=read$/m);
    const classic = await run('check', 'examples/ci/calls.yaml', '--kind', 'classic');
    expect(classic.stdout).toMatch(/grant: repo$/m);
  });

  it('prints the JSON report: grant, unused, and each call with its place and Decision', async () => {
    const { stdout } = await run(...BOT, '--json');
    const report = JSON.parse(stdout);
    expect(report.grant).toEqual({
      kind: 'permissions',
      permissions: { issues: 'read', variables: 'write' },
    });
    expect(report.unused).toEqual(['issues=write (read suffices)', 'contents=read']);
    expect(report.calls[0]).toMatchObject({
      file: 'examples/ci/bot/index.ts',
      line: 10,
      method: 'GET',
      verdict: 'allowed',
    });
    expect(report.calls[0].decision.reason).toBe('allowed');
    // One call is unresolved: never sufficient while a call is not judged.
    expect(report.sufficient).toBe(false);
    expect(report.partial).toBe(true);
  });

  it('prints SARIF 2.1.0 that validates against the official schema, each result at its file and line', async () => {
    const { stdout } = await run('check', 'examples/ci/workflows/triage.yml', '--format', 'sarif');
    const schema = JSON.parse(readFileSync('test/fixtures/sarif-schema-2.1.0.json', 'utf8'));
    const validate = new Ajv2020({ strict: false, validateFormats: false, allErrors: true }).compile(schema);
    const log = JSON.parse(stdout);
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    const [result] = log.runs[0].results;
    expect(result.ruleId).toBe('never');
    expect(result.level).toBe('error');
    expect(result.locations[0].physicalLocation).toMatchObject({
      artifactLocation: { uri: 'examples/ci/workflows/triage.yml' },
      region: { startLine: 17 },
    });
  });

  it('prints workflow-command annotations and JUnit XML', async () => {
    const github = (await run('check', 'examples/ci/workflows/triage.yml', '--format', 'github')).stdout;
    expect(github).toMatch(
      /^::error file=examples\/ci\/workflows\/triage\.yml,line=17,col=\d+,title=tollgate%3A never \(job label\)::GET/m,
    );
    expect(github.trimEnd().split('\n').at(-1)).toMatch(
      /^::notice title=tollgate check \(job label\)::label: workflow: 2 calls/,
    );
    const junit = (await run('check', 'examples/ci/workflows/triage.yml', '--format', 'junit')).stdout;
    expect(junit).toMatch(
      /<testsuite name="tollgate check \(label: workflow\)" tests="2" failures="1" skipped="0">/,
    );
    expect(junit.match(/<testcase /g)).toHaveLength(2);
    expect(junit).toMatch(
      /<failure type="never" message="GET \/repos\/\{owner\}\/\{repo\}\/actions\/variables needs `variables=read`, which a workflow token cannot hold/,
    );
  });

  it('reads an OpenAPI document: every operation, the servers’ base path stripped', async () => {
    const api = file(
      'api.yaml',
      'openapi: 3.1.0\nservers:\n  - url: https://api.example.com/v3\npaths:\n  /v3/notifications:\n    get: {}\n    put: {}\n  /v3/repos/{owner}/{repo}/issues/events:\n    get: {}\n',
    );
    const { code, stdout } = await run('check', api, '--kind', 'classic', '--json');
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(
      report.calls.map(
        (c: { method: string; path: string; line: number }) => `${c.method} ${c.path} ${c.line}`,
      ),
    ).toEqual(['GET /notifications 6', 'PUT /notifications 7', 'GET /repos/{owner}/{repo}/issues/events 9']);
  });

  it('recognizes a minified JSON OpenAPI document', async () => {
    const api = file('api.json', '{"openapi":"3.0.3","paths":{"/notifications":{"get":{}}}}');
    const { code, stdout } = await run('check', api, '--kind', 'classic');
    expect(code).toBe(0);
    expect(stdout).toMatch(/grant: notifications$/m);
  });

  it('reads plain-text calls', async () => {
    const calls = file('calls.txt', '# what the dashboard calls\nGET /notifications\nPUT /notifications\n');
    const { code, stdout } = await run('check', calls, '--kind', 'classic');
    expect(code).toBe(0);
    expect(stdout).toMatch(/grant: notifications$/m);
  });

  it('finds the common Octokit idioms, whatever the client is called', async () => {
    const code = file(
      'src/idioms.ts',
      [
        "import { getOctokit } from '@actions/github';",
        'export async function run(token: string, context: any, owner: string, repo: string) {',
        '  const gh = getOctokit(token);',
        '  await gh.rest.issues.listEventsForRepo({ owner, repo });',
        '  await context.octokit.rest.actions.listRepoVariables({ owner, repo });',
        '  await gh.paginate(gh.rest.actions.listRepoVariables, { owner, repo });',
        '  await gh.paginate(gh.rest.issues.listEventsForRepo.endpoint.merge({ owner, repo }));',
        '  await this_.client.request(`GET /notifications`);',
        "  await gh.paginate('/notifications');",
        '}',
        'declare const this_: any;',
      ].join('\n'),
    );
    const { stdout } = await run('check', code, '--kind', 'classic', '--json');
    const found = JSON.parse(stdout).calls.map(
      (c: { line: number; method: string; path: string }) => `${c.line} ${c.method} ${c.path}`,
    );
    expect(found).toEqual([
      '4 GET /repos/{owner}/{repo}/issues/events',
      '5 GET /repos/{owner}/{repo}/actions/variables',
      '6 GET /repos/{owner}/{repo}/actions/variables',
      '7 GET /repos/{owner}/{repo}/issues/events',
      '8 GET /notifications',
      '9 GET /notifications',
    ]);
  });
});
