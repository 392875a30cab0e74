// Workflows as the service runs them: `${{ }}` anywhere in a script, the real `permissions:` keys,
// the least block to paste, what a workflow token cannot hold, a step's own token, `gh api`,
// opaque steps and reusable workflows, composite actions.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: workflow expressions `${{ }}` are the input under test
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { run, scratchFiles } from '../support/cli.js';

const file = scratchFiles('tollgate-workflow-');
const workflow = (name: string, lines: string[]) =>
  file(`repo/.service/workflows/${name}`, `${lines.join('\n')}\n`);

describe('the workflow permissions table', () => {
  it('holds the keys of the service’s workflow syntax, each mapped to a seed permission or to none, with its source', () => {
    const table = parse(readFileSync('data/workflow-permissions.yaml', 'utf8'));
    expect(table.source).toMatch(/workflow syntax.*not in the seeds/);
    expect(Object.keys(table.keys)).toEqual(
      expect.arrayContaining([
        'actions',
        'contents',
        'id-token',
        'checks',
        'statuses',
        'packages',
        'pages',
        'deployments',
        'attestations',
        'pull-requests',
      ]),
    );
    expect(table.keys['pull-requests'].grants).toBe('pull_requests');
    expect(table.keys['id-token'].grants).toBeUndefined();
    // Keys a workflow block cannot hold are not in it.
    expect(Object.keys(table.keys)).not.toContain('variables');
  });
});

describe('tollgate check on workflows', () => {
  it('reads a script with `${{ }}` expressions outside strings, and a folder with such a file', async () => {
    const path = workflow('remote.yml', [
      'on: workflow_dispatch',
      'permissions: { issues: read }',
      'jobs:',
      '  a:',
      '    runs-on: x',
      '    steps:',
      '      - uses: actions/github-script@v7',
      '        with:',
      '          script: |',
      '            let remote = ${{ inputs.is_remote }};',
      '            const n = ${{ github.event.issue.number }};',
      '            await github.rest.issues.listEventsForRepo({ owner: context.repo.owner, repo: "r" });',
    ]);
    const { code, stdout, stderr } = await run('check', path);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/remote\.yml:12:\d+\s+GET \/repos\/\{owner\}\/\{repo\}\/issues\/events\s+allowed/);
  });

  it('accepts every key of the syntax (those with no seed permission judge nothing) and names the ones that are not keys', async () => {
    const ok = workflow('keys.yml', [
      'on: push',
      'permissions:',
      '  id-token: write',
      '  checks: write',
      '  statuses: write',
      '  packages: read',
      '  pages: write',
      '  deployments: write',
      '  attestations: write',
      '  contents: read',
      'jobs:',
      '  a: { runs-on: x, steps: [ { run: echo hi } ] }',
    ]);
    const json = JSON.parse((await run('check', ok, '--json')).stdout);
    expect(json.jobs[0].workflow.held).toMatchObject({
      'id-token': 'write',
      checks: 'write',
      contents: 'read',
    });
    // Only `contents` maps to a seed permission: it is the only key "unused" can name.
    expect(json.jobs[0].unused).toEqual(['contents: read']);
    const bad = workflow('vars.yml', [
      'on: push',
      'permissions: { variables: read }',
      'jobs:',
      '  a: { runs-on: x, steps: [] }',
    ]);
    const refused = await run('check', bad);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /vars\.yml:2:16: unknown workflow permission `variables`.*valid keys: actions, /,
    );
  });

  it('prints the least block to paste, and names what a workflow token cannot hold with the alternative', async () => {
    const path = workflow('needs.yml', [
      'on: push',
      'permissions: write-all',
      'jobs:',
      '  sync:',
      '    runs-on: x',
      '    steps:',
      '      - uses: actions/github-script@v7',
      '        with:',
      '          script: |',
      '            await github.rest.issues.listEventsForRepo({ owner, repo });',
      "            await github.request('POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel', { owner, repo, run_id: 1 });",
      "            await github.request('GET /orgs/{org}/actions/variables', { org: 'acme' });",
    ]);
    const { code, stdout } = await run('check', path);
    expect(code).toBe(1);
    expect(stdout).toContain(
      'least block for the judged calls:\npermissions:\n  actions: write\n  issues: read\n',
    );
    expect(stdout).toMatch(
      /GET \/orgs\/\{org\}\/actions\/variables\s+never\s+.*needs `organization_variables=read`, which a workflow token cannot hold: use an app installation token or a fine-grained token/,
    );
    expect(stdout).toMatch(/unused: .*contents: write/);
    expect(stdout).toMatch(
      /grant: actions: write, issues: read \(a workflow token cannot hold organization_variables=read\)/,
    );
  });

  it('advises the least block for a job with no `permissions:`, not a list of unused defaults', async () => {
    const path = workflow('bare.yml', [
      'on: push',
      'jobs:',
      '  triage:',
      '    runs-on: x',
      '    steps:',
      '      - uses: actions/github-script@v7',
      '        with:',
      '          script: await github.rest.issues.listEventsForRepo({ owner, repo });',
    ]);
    const { stdout } = await run('check', path);
    expect(stdout).toContain('job `triage` states no `permissions:`');
    expect(stdout).toContain('add the least block:\npermissions:\n  issues: read');
    expect(stdout).not.toMatch(/unused:/);
  });

  it('judges a step’s own `github-token:` as that token: not judged by default, as --step-token-kind says otherwise', async () => {
    const path = workflow('pat.yml', [
      'on: push',
      'permissions: { contents: read }',
      'jobs:',
      '  a:',
      '    runs-on: x',
      '    steps:',
      '      - uses: actions/github-script@v7',
      '        with:',
      '          github-token: ${{ secrets.PAT }}',
      '          script: await github.rest.issues.listEventsForRepo({ owner, repo });',
    ]);
    const plain = await run('check', path, '--json');
    expect(plain.code).toBe(1);
    const report = JSON.parse(plain.stdout);
    expect(report.jobs.map((j: { job: string }) => j.job)).toEqual(['a', 'a (token ${{ secrets.PAT }})']);
    expect(report.calls[0].verdict).toBe('unjudged');
    expect(report.calls[0].note).toMatch(/own token `\$\{\{ secrets\.PAT \}\}`: give --step-token-kind K/);
    const judged = JSON.parse(
      (await run('check', path, '--step-token-kind', 'fine-grained', '--json')).stdout,
    );
    expect(judged.jobs[1]).toMatchObject({
      tokenKind: 'fine-grained',
      grant: { permissions: { issues: 'read' } },
    });
    expect(judged.passed).toBe(true);
  });

  it('reads `gh api` in `run:` steps like calls: method flags, fields, GraphQL', async () => {
    const path = workflow('gh.yml', [
      'on: push',
      'permissions: { issues: write, actions: write }',
      'jobs:',
      '  a:',
      '    runs-on: x',
      '    env: { GH_TOKEN: "${{ github.token }}" }',
      '    steps:',
      '      - run: |',
      '          gh api repos/{owner}/{repo}/issues/events --paginate',
      '          gh api -X POST repos/${{ github.repository }}/actions/runs/$RUN_ID/cancel',
      '          gh api --method DELETE \\',
      '            repos/{owner}/{repo}/actions/variables/NAME',
      "          gh api graphql -f query='mutation { addStar(input: {}) { clientMutationId } }'",
    ]);
    const report = JSON.parse((await run('check', path, '--json')).stdout);
    expect(
      report.calls.map(
        (c: { line: number; method: string; path: string; verdict: string }) =>
          `${c.line} ${c.method} ${c.path} ${c.verdict}`,
      ),
    ).toEqual([
      '9 GET /repos/{owner}/{repo}/issues/events allowed',
      '10 POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel allowed',
      '11 DELETE /repos/{owner}/{repo}/actions/variables/NAME never',
      '13 POST /graphql unjudged',
    ]);
    expect(report.calls[3].graphql).toEqual({ operation: 'mutation', cost: 5 });
  });

  it('makes "unused" cautious with `uses:` steps and reusable workflows, and says why', async () => {
    const path = workflow('opaque.yml', [
      'on: push',
      'permissions: { contents: write, issues: write }',
      'jobs:',
      '  build:',
      '    runs-on: x',
      '    steps:',
      '      - uses: ./',
      '      - uses: actions/github-script@v7',
      '        with:',
      '          script: await github.rest.issues.listEventsForRepo({ owner, repo });',
      '  release:',
      '    uses: ./.service/workflows/release.yml',
    ]);
    const { stdout } = await run('check', path, '--json');
    const [build, release] = JSON.parse(stdout).jobs;
    expect(build.unused).toBeNull();
    expect(build.workflow.unusedWithheld).toBe('step 1 `uses: ./` may need what the token holds');
    expect(release.workflow.unusedWithheld).toMatch(
      /reusable workflow `\.\/\.service\/workflows\/release\.yml`/,
    );
  });

  it('reads a composite action’s action.yml like a workflow, its token’s default from its inputs', async () => {
    const action = file(
      'my-action/action.yml',
      [
        'name: label-bot',
        'inputs:',
        '  token: { default: "${{ github.token }}" }',
        'runs:',
        '  using: composite',
        '  steps:',
        '    - uses: actions/github-script@v7',
        '      with:',
        '        github-token: ${{ inputs.token }}',
        '        script: await github.rest.issues.listEventsForRepo({ owner, repo });',
      ].join('\n'),
    );
    const { code, stdout } = await run('check', action);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^job label-bot:$/m);
    expect(stdout).toContain(
      'the workflow that uses this action grants its token; its calls need at least:\npermissions:\n  issues: read',
    );
    const folder = await run('check', action.replace(/action\.yml$/, ''));
    expect(folder.stdout).toMatch(/^job label-bot:$/m);
  });
});
