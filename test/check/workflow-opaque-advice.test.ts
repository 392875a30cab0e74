// A job with no `permissions:` whose steps tollgate cannot read (actions, commands handed the
// token) runs them on the default token: the least block of the judged calls alone could take
// from them what they need. Found by a new user's trial on a real workflow of
// peter-evans/create-pull-request (test/fixtures/advice/), where `check` advised `permissions: {}`
// for a job whose `uses: ./` step opens a pull request.
import { describe, expect, it } from 'vitest';
import { run, scratchFiles } from '../support/cli.js';

const file = scratchFiles('tollgate-advice-');

const WORKFLOW =
  'test/fixtures/advice/peter-evans__create-pull-request/.github/workflows/cpr-example-command.yml';

describe('the advice for a job with no `permissions:` and steps tollgate cannot read', () => {
  it('names the steps and never offers the block of the judged calls as the whole answer', async () => {
    const { code, stdout, stderr } = await run('check', WORKFLOW);
    expect([code, stderr]).toEqual([0, '']);
    expect(stdout).toContain('job `createPullRequest` states no `permissions:`');
    expect(stdout).toContain('step 3 (Create Pull Request) `uses: ./`');
    expect(stdout).toContain('(`permissions: {}` alone would leave them no permission)');
    expect(stdout).not.toContain('add the least block:');
  });

  it('says the same in the JSON report', async () => {
    const { stdout } = await run('check', WORKFLOW, '--json');
    const [report] = JSON.parse(stdout).jobs;
    expect(report.workflow.defaulted).toBe(true);
    expect(report.workflow.advice).toEqual([
      expect.stringMatching(/`uses: \.\/`.*may need what the token holds; add what those need/),
    ]);
  });

  // The review of that mend: a job whose only calls could not be judged got the bare block too.
  it('does the same for calls it could not judge', async () => {
    const workflow = file(
      'repo/.github/workflows/open.yml',
      'on: push\njobs:\n  open:\n    runs-on: x\n    steps:\n      - run: gh api repos/o/r/pulls -X POST -f title=t -f head=h -f base=main\n',
    );
    const { stdout } = await run('check', workflow);
    expect(stdout).toContain('1 call not judged may need it');
    expect(stdout).toContain('(`permissions: {}` alone would leave them no permission)');
    expect(stdout).not.toContain('add the least block:');
  });
});
