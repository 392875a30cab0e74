// `tollgate check` as a careful reviewer tried it: several jobs, write-all, casts and decorators, permissions that stand in for each other.
import { describe, expect, it } from 'vitest';
import { run, scratchFiles } from '../support/cli.js';

const file = scratchFiles('tollgate-check-');

describe('tollgate check: what a careful reviewer tried', () => {
  const twoJobs = () =>
    file(
      'two/workflows/two.yml',
      [
        'on: push',
        'permissions: write-all',
        'jobs:',
        '  first:',
        '    runs-on: x',
        '    permissions: { issues: read }',
        '    steps:',
        '      - uses: actions/github-script@v7',
        '        with:',
        '          script: await github.rest.issues.listEventsForRepo({ owner, repo });',
        '  second:',
        '    runs-on: x',
        '    steps:',
        '      - uses: actions/github-script@v7',
        '        with:',
        '          script: >',
        '            await github.request(',
        "              'POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel', { owner, repo });",
      ].join('\n'),
    );

  it('prints one document for a workflow of several jobs: one JSON object, one SARIF run, JUnit suites', async () => {
    const workflow = twoJobs();
    const json = JSON.parse((await run('check', workflow, '--json')).stdout);
    expect(
      json.jobs.map((report: { job: string; counts: { allowed: number; uncertain: number } }) => [
        report.job,
        report.counts.allowed,
        report.counts.uncertain,
      ]),
    ).toEqual([
      ['first', 1, 0],
      ['second', 1, 0],
    ]);
    expect(json.calls.map((call: { job: string }) => call.job)).toEqual(['first', 'second']);
    const sarif = JSON.parse((await run('check', workflow, '--format', 'sarif')).stdout);
    expect(sarif.runs).toHaveLength(1);
    expect(sarif.runs[0].properties.jobs.map((job: { job: string }) => job.job)).toEqual(['first', 'second']);
    const junit = (await run('check', workflow, '--format', 'junit')).stdout;
    expect(junit.match(/<\?xml/g)).toHaveLength(1);
    expect(junit.match(/<testsuite /g)).toHaveLength(2);
  });

  it('reads `write-all` as each permission at its highest level, and places each script’s calls', async () => {
    const { code, stdout } = await run('check', twoJobs(), '--json');
    expect(code).toBe(0);
    const [first, second] = JSON.parse(stdout).calls;
    // A one-line plain script: the call's own column. A folded one: the script's place.
    expect(first).toMatchObject({ job: 'first', line: 10, column: 25 });
    expect(second).toMatchObject({ job: 'second', line: 16, column: 19 });
  });

  it('refuses to judge non-workflow sources with a workflow’s token', async () => {
    await expect(run('check', twoJobs(), 'examples/ci/bot')).resolves.toMatchObject({ code: 2, stdout: '' });
  });

  it('sees calls through TypeScript casts and in decorated classes, and routes given as full URLs', async () => {
    const code = file(
      'cast.ts',
      [
        'declare function Injectable(): ClassDecorator;',
        '@Injectable()',
        'export class Bot {',
        '  constructor(private readonly client: unknown) {}',
        '  async run() {',
        '    await (this.client as any).rest.issues.listEventsForRepo({ owner: "o", repo: "r" });',
        "    await (<any>this.client).request('GET https://api.example.com/notifications');",
        '  }',
        '}',
      ].join('\n'),
    );
    const { stdout } = await run('check', code, '--kind', 'classic', '--json');
    expect(
      JSON.parse(stdout).calls.map((c: { method: string; path: string }) => `${c.method} ${c.path}`),
    ).toEqual(['GET /repos/{owner}/{repo}/issues/events', 'GET /notifications']);
  });

  it('keeps one of two permissions that stand in for each other out of `unused`', async () => {
    const calls = file('either.txt', 'GET /repos/{owner}/{repo}/issues/events/{event_id}\n');
    const token = file(
      'both.yaml',
      'kind: fine-grained\npermissions: { issues: read, pull_requests: read }\nrepositories: all\n',
    );
    const report = JSON.parse((await run('check', calls, '--token', token, '--json')).stdout);
    expect(report.unused).toHaveLength(1);
  });
});
