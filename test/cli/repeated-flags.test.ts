// Regression tests for a new user's trial: a flag that takes one value, given twice, silently took
// the last (`--kind classic --kind fine-grained` judged a fine-grained token). Every command parses
// its flags through one parser, which now refuses the second use; repeatable flags still repeat.
import { describe, expect, it } from 'vitest';
import { run, scratchFiles } from '../support/cli.js';

const file = scratchFiles('tollgate-repeated-');

function expectGivenTwice(result: { code: number; stdout: string; stderr: string }, line: string) {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toBe(`tollgate: ${line}\n`);
}

describe('a single-valued flag given twice is refused, not silently the last', () => {
  it('refuses `explain --kind classic --kind fine-grained` (it judged a fine-grained token)', async () => {
    expectGivenTwice(
      await run('explain', 'GET', '/notifications', '--kind', 'classic', '--kind', 'fine-grained'),
      'explain: `--kind` given twice (`classic`, then `fine-grained`); give it once',
    );
  });

  it('refuses two token files, in either spelling of the flag (it read only the last)', async () => {
    const a = file('a.yaml', 'kind: classic\nscopes: [notifications]\n');
    const b = file('b.yaml', 'kind: anonymous\n');
    expectGivenTwice(
      await run('explain', 'GET', '/notifications', '--token', a, `--token=${b}`),
      `explain: \`--token\` given twice (\`${a}\`, then \`${b}\`); give it once`,
    );
    expectGivenTwice(
      await run('check', a, '--token', a, '--token', b),
      `check: \`--token\` given twice (\`${a}\`, then \`${b}\`); give it once`,
    );
  });

  it('refuses the same value given twice too', async () => {
    expectGivenTwice(
      await run('explain', 'GET', '/notifications', '--visibility', 'public', '--visibility', 'public'),
      'explain: `--visibility` given twice (`public`, then `public`); give it once',
    );
  });

  it('refuses repeated values in limits, check and simulate, before reading any file', async () => {
    expectGivenTwice(
      await run('limits', '--kind', 'app-installation', '--repositories', '50', '--repositories', '-5'),
      'limits: `--repositories` given twice (`50`, then `-5`); give it once',
    );
    expectGivenTwice(
      await run('check', 'missing.json', '--format', 'json', '--format', 'sarif'),
      'check: `--format` given twice (`json`, then `sarif`); give it once',
    );
    expectGivenTwice(
      await run('simulate', 'missing.yaml', '--recommend', '--within', '1h', '--within', '2h'),
      'simulate: `--within` given twice (`1h`, then `2h`); give it once',
    );
  });

  it('keeps the repeatable flags repeatable: --scope, --permission, --repository, --overlay', async () => {
    const classic = await run(
      'explain',
      'GET',
      '/notifications',
      '--kind',
      'classic',
      '--scope',
      'repo',
      '--scope',
      'notifications',
    );
    expect(classic.code).toBe(0);
    const fine = await run(
      'explain',
      'GET',
      '/repos/acme/app/issues/events',
      '--kind',
      'fine-grained',
      '--permission',
      'issues=read',
      '--permission',
      'contents=read',
      '--repository',
      'acme/app',
      '--repository',
      'acme/web',
    );
    expect(fine.stderr).toBe('');
    expect(fine.code).toBe(0);
    const overlay = 'examples/overlay-public-contents.yaml';
    const endpoints = await run('endpoints', '--json', '--overlay', overlay, '--overlay', overlay);
    expect(endpoints.stderr).toBe('');
    expect(endpoints.code).toBe(0);
  });

  it('leaves a switch given twice alone: it takes no value to lose', async () => {
    const result = await run('limits', '--kind', 'classic', '--json', '--json');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toBeTypeOf('object');
  });
});
