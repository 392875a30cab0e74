import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, scratchFiles } from '../support/cli.js';

const file = scratchFiles('tollgate-cli-');

function expectOneLineError(
  result: { code: number; stderr: string; stdout: string },
  ...fragments: string[]
) {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  for (const fragment of fragments) expect(result.stderr).toContain(fragment);
}

describe('CLI bad input: one line, exit 2, no stack trace', () => {
  it('names an unknown permission slug with a suggestion and the valid choices', async () => {
    expectOneLineError(
      await run('explain', 'GET', '/user', '--kind', 'fine-grained', '--permission', 'isues=read'),
      '`isues`',
      'did you mean `issues`',
      'valid permissions:',
    );
  });

  it('names an unknown scope', async () => {
    expectOneLineError(
      await run('explain', 'GET', '/notifications', '--kind', 'classic', '--scope', 'notification'),
      '`notification`',
      'did you mean `notifications`',
    );
  });

  it('names an unknown token kind', async () => {
    expectOneLineError(
      await run('explain', 'GET', '/notifications', '--kind', 'fine_grained'),
      'unknown token kind `fine_grained`',
      'did you mean `fine-grained`',
      'valid choices:',
    );
  });

  it('names an unknown method', async () => {
    expectOneLineError(
      await run('explain', 'GRT', '/notifications'),
      'unknown method `GRT`',
      'valid choices: GET',
    );
  });

  it('names an unknown option and an unknown command', async () => {
    expectOneLineError(
      await run('explain', 'GET', '/x', '--visiblity', 'public'),
      '`--visiblity`',
      'did you mean `--visibility`',
    );
    expectOneLineError(await run('explian'), 'unknown command `explian`', 'did you mean `explain`');
  });

  // A new user's trial: `--kind` at the end printed node's "Option '--kind <value>' argument missing".
  it('names a flag given without its value, and where the choices are', async () => {
    expectOneLineError(
      await run('check', 'calls.txt', '--kind'),
      'check: `--kind` needs a value (`--kind <value>`; `tollgate check --help` says what it takes)',
    );
    expectOneLineError(await run('explain', 'GET', '/user', '--token'), 'explain: `--token` needs a value');
  });

  // The same trial: `--json --format sarif` printed JSON and said nothing of the SARIF asked for.
  it('refuses --json beside another --format', async () => {
    expectOneLineError(
      await run('check', 'calls.txt', '--json', '--format', 'sarif'),
      'check: `--json` and `--format sarif` ask for two formats; give one',
    );
  });

  it('rejects a level the permission does not offer', async () => {
    expectOneLineError(
      await run('explain', 'GET', '/x', '--kind', 'fine-grained', '--permission', 'metadata=write'),
      'metadata=write',
    );
  });

  it('rejects a repository that is not owner/repo, and permissions on an anonymous caller', async () => {
    expectOneLineError(
      await run('explain', 'GET', '/x', '--kind', 'fine-grained', '--repository', 'acme'),
      'invalid repository `acme`',
      'owner/repo',
    );
    expectOneLineError(
      await run('explain', 'GET', '/x', '--permission', 'issues=read'),
      'an anonymous token has no permissions',
    );
  });

  it('rejects scopes on a fine-grained token', async () => {
    expectOneLineError(
      await run('explain', 'GET', '/x', '--kind', 'fine-grained', '--scope', 'repo'),
      'has no scopes',
    );
  });

  it('names the file, line and column of malformed YAML in a token file', async () => {
    const token = file('broken.yaml', 'kind: classic\nscopes: [repo\n');
    const result = await run('explain', 'GET', '/notifications', '--token', token);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/broken\.yaml:\d+:\d+: invalid YAML/);
  });

  it('names the line of an unknown permission in a token file', async () => {
    const token = file('typo.yaml', 'kind: fine-grained\npermissions:\n  contents: read\n  isues: write\n');
    expectOneLineError(
      await run('explain', 'GET', '/notifications', '--token', token),
      'typo.yaml:4:3: unknown permission `isues` (did you mean `issues`?)',
    );
  });

  it('names a missing file', async () => {
    expectOneLineError(
      await run('explain', 'GET', '/x', '--token', join(dirname(file('present.yaml', '')), 'absent.yaml')),
      'cannot read',
      'no such file',
    );
  });
});

describe('tollgate validate', () => {
  it('accepts the shipped tables', async () => {
    const result = await run('validate', 'data/permissions.yaml', 'data/scopes.yaml', 'data/limits.yaml');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/data\/permissions\.yaml: ok \(permissions table, \d{3} endpoints\)/);
  });

  it('lists every problem of a bad overlay as file:line:col: message (hint), exit 2', async () => {
    const overlay = file(
      'overlay.yaml',
      [
        'version: 1',
        'endpoints:',
        '  GET /repos/{owner}/{repo}/wiki:',
        '    fine_grained: [{contnets: read}]',
        '    tokens: [classic, fine-graned]',
        '    colour: blue',
        '  GET /notifications:',
        '    classic: [[notifications, reop]]',
        '',
      ].join('\n'),
    );
    const result = await run('validate', overlay);
    expect(result.code).toBe(2);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /overlay\.yaml:5:\d+: invalid value `fine-graned` .*did you mean `fine-grained`/,
        ),
        expect.stringMatching(/overlay\.yaml:6:5: unknown field `colour`/),
      ]),
    );
    // Schema problems stop before the cross-table checks; fix them and those are reported too.
    const second = file(
      'overlay2.yaml',
      'version: 1\nendpoints:\n  GET /repos/{owner}/{repo}/wiki:\n    fine_grained: [{contnets: read}]\n  GET /notifications:\n    classic: [[notifications, reop]]\n',
    );
    const again = await run('validate', second);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(
      /overlay2\.yaml:4:21: unknown permission `contnets` \(did you mean `contents`\?\)/,
    );
    expect(again.stderr).toMatch(/overlay2\.yaml:6:\d+: unknown scope `reop` \(did you mean `repo`\?\)/);
  });

  it('accepts a good overlay and reports it', async () => {
    const result = await run('validate', 'examples/overlay-public-contents.yaml');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('ok (overlay, 1 endpoint)');
  });

  it('says what it cannot recognise', async () => {
    const result = await run('validate', file('what.yaml', 'hello: world\n'));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('what.yaml:1:1: cannot tell what this file is');
  });
});

describe('CLI: malformed YAML', () => {
  const problemLines = (stderr: string) =>
    stderr
      .trimEnd()
      .split('\n')
      .filter((line) => /:\d+:\d+: /.test(line));
  const positions = (lines: string[]) =>
    lines.map((line) => /:(\d+):(\d+): /.exec(line)!.slice(1).map(Number));

  it.each([['validate'], ['explain --token'], ['explain --overlay']])(
    '%s reports each problem once, in file order',
    async (how) => {
      const path = file('two-problems.yaml', 'kind: classic\nscopes: [repo, "x\n\n- a\nb: c\n');
      const args =
        how === 'validate'
          ? ['validate', path]
          : ['explain', 'GET', '/user', how.endsWith('token') ? '--token' : '--overlay', path];
      const result = await run(...args);
      expect(result.code).toBe(2);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      const lines = problemLines(result.stderr);
      expect(lines.length).toBeGreaterThanOrEqual(2);
      expect(new Set(lines).size).toBe(lines.length);
      const sorted = [...positions(lines)].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
      expect(positions(lines)).toEqual(sorted);
    },
  );

  it('reports an alias to an undefined anchor as invalid YAML, not an internal error', async () => {
    expectOneLineError(
      await run(
        'explain',
        'GET',
        '/user',
        '--token',
        file('alias.yaml', 'kind: classic\nscopes: *nowhere\n'),
      ),
      'alias.yaml',
      'invalid YAML',
    );
  });

  it('lists each table problem once (not the first one again in the message)', async () => {
    const overlay = file(
      'overlay-two.yaml',
      'version: 1\nendpoints:\n  GET /x:\n    fine_grained: [{isues: read}]\n  GET /y:\n    fine_grained: [{pull_reqs: read}]\n',
    );
    const result = await run('explain', 'GET', '/x', '--overlay', overlay);
    expect(result.code).toBe(2);
    const lines = problemLines(result.stderr);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(new Set(lines.map((line) => line.replace(/^tollgate: /, ''))).size).toBe(lines.length);
  });
});
