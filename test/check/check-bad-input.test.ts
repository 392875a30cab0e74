// `tollgate check` on bad input: one line naming the place and the valid choices, exit 2, no stack; what cannot be judged is listed, not fatal.
import { describe, expect, it } from 'vitest';
import { run, scratchFiles } from '../support/cli.js';

const file = scratchFiles('tollgate-check-');

describe('tollgate check on bad input', () => {
  async function expectBadInput(args: string[], ...fragments: string[]) {
    const { code, stdout, stderr } = await run(...args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    for (const fragment of fragments) expect(stderr).toContain(fragment);
    expect(stderr).not.toMatch(/\n\s+at /);
  }

  // Found by a new user's trial: 200,000 calls ended in `internal error: Maximum call stack size
  // exceeded` (exit 70), the text report spreading every row into one call.
  it('judges a calls file of 200,000 calls and prints every row', async () => {
    const lines = Array.from({ length: 200_000 }, (_, i) => `GET /repos/acme/app/issues/events/${i}`);
    const calls = file('many.txt', `${lines.join('\n')}\n`);
    const { code, stdout, stderr } = await run('check', calls, '--kind', 'fine-grained');
    expect([code, stderr]).toEqual([0, '']);
    expect(stdout.split('\n').filter((line) => line.endsWith('allowed'))).toHaveLength(200_000);
    expect(stdout).toContain('fine-grained: 200000 calls, 200000 allowed; grant: issues=read');
  }, 60_000);

  // A new user's trial: a workflow copied outside a `workflows/` folder was read as a calls file
  // and refused without a word about where workflows are read.
  it('says where workflows are read when one is given outside a workflows folder', async () => {
    const workflow = file('misc/cherry.yml', 'on: push\njobs:\n  a:\n    runs-on: x\n    steps: []\n');
    await expectBadInput(
      ['check', workflow],
      'cherry.yml:1:1: a calls file is a list of calls',
      'this looks like a workflow: workflows are read from a `workflows/` folder',
    );
  });

  it('names the file, line and column of an unknown method, with the valid choices', async () => {
    const calls = file('bad.txt', 'GET /notifications\nFETCH /notifications\n');
    await expectBadInput(
      ['check', calls, '--kind', 'classic'],
      'bad.txt:2:1: unknown method `FETCH`',
      'valid methods: GET',
    );
  });

  it('names an unknown workflow permission, with the valid ones', async () => {
    const workflow = file(
      'repo/workflows/bad.yml',
      'on: push\npermissions:\n  isues: write\njobs:\n  a:\n    runs-on: x\n    steps: []\n',
    );
    await expectBadInput(
      ['check', workflow],
      'bad.yml:3:3: unknown workflow permission `isues` (did you mean `issues`?)',
      'valid keys: actions, attestations, checks',
    );
  });

  it('refuses a workflow without jobs', async () => {
    const workflow = file('repo2/workflows/empty.yml', 'on: push\n');
    await expectBadInput(['check', workflow], 'empty.yml:', 'a workflow needs `jobs:`');
  });

  it('lists code that does not parse as one unresolved call at the error, and still judges the other files', async () => {
    const broken = file('mixed/broken.ts', 'const a = 1;\nconst = ;\n');
    file('mixed/good.ts', 'await octokit.issues.listEventsForRepo({ owner, repo });\n');
    const { code, stdout } = await run(
      'check',
      broken.replace(/broken\.ts$/, ''),
      '--kind',
      'classic',
      '--format',
      'json',
    );
    expect(code).not.toBe(2);
    const calls = (
      JSON.parse(stdout) as {
        calls: { file: string; line: number; resolved: boolean; via: string; path: string | null }[];
      }
    ).calls;
    expect(
      calls.map((call) => [call.file.replace(/^.*mixed\//, ''), call.line, call.resolved, call.via]),
    ).toEqual([
      ['broken.ts', 2, false, 'the whole file'],
      ['good.ts', 1, true, 'octokit.issues.listEventsForRepo'],
    ]);
  });

  it('lists a REST method Octokit does not have as one unresolved call and goes on (was: the end of the run)', async () => {
    const code = file(
      'typo.ts',
      'await octokit.rest.issues.listEventsForRepos({ owner, repo });\nawait octokit.rest.issues.listEventsForRepo({ owner, repo });\n',
    );
    const { code: exit, stdout } = await run('check', code, '--kind', 'classic');
    expect(exit).not.toBe(2);
    expect(stdout).toMatch(/typo\.ts:1:7\s+octokit\.rest\.issues\.listEventsForRepos \(not resolved\)/);
    expect(stdout).toMatch(/typo\.ts:2:7\s+GET \/repos\/\{owner\}\/\{repo\}\/issues\/events/);
  });

  it('refuses an unknown token kind, format or source', async () => {
    await expectBadInput(
      ['check', 'examples/ci/calls.yaml', '--kind', 'fine'],
      'unknown token kind `fine`',
      'valid choices',
    );
    await expectBadInput(
      ['check', 'examples/ci/calls.yaml', '--kind', 'classic', '--format', 'xml'],
      'unknown format `xml`',
    );
    await expectBadInput(
      ['check', 'no/such/file.ts', '--kind', 'classic'],
      'no file or folder `no/such/file.ts`',
    );
    await expectBadInput(['check', 'examples/ci/calls.yaml'], 'give `--token FILE` or `--kind K`');
  });

  it('refuses a token file with an unknown permission level', async () => {
    const token = file(
      'token.yaml',
      'kind: fine-grained\npermissions: { issues: admin }\nrepositories: all\n',
    );
    await expectBadInput(
      ['check', 'examples/ci/calls.yaml', '--token', token],
      'token.yaml:2:',
      'valid choices: read, write',
    );
  });
});
