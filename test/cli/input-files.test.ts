// Every file the CLI reads (token, overlay, scenario, limits, calls, code, validate's files) goes
// through one bounded reader: a regular file (links followed) of at most 64 MiB, holding text.
// Regression tests for a new user's trial: /dev/zero as a token file grew to 8 GB, a link to it in
// a checked folder to 6.5 GB, a FIFO blocked `validate` forever, /bin/ls printed 94 YAML errors.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../support/cli.js';
import { type ProcessResult, runProcess } from '../support/cli-process.js';

const dir = mkdtempSync(join(tmpdir(), 'tollgate-input-'));
const fifo = join(dir, 'token.fifo');
execFileSync('mkfifo', [fifo]);

/** Finished on its own, well before the deadline, exit 2, one line on stderr naming `fragments`. */
function expectRefusedInTime(result: ProcessResult, ...fragments: string[]) {
  expect(result.code).toBe(2);
  expect(result.milliseconds).toBeLessThan(10_000);
  expect(result.stdout).toBe('');
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at |internal error/);
  for (const fragment of fragments) expect(result.stderr).toContain(fragment);
}

describe.concurrent('files that are not regular files, bounded in time and memory', () => {
  it('refuses /dev/zero as a token file (it grew to 8 GB)', async () => {
    expectRefusedInTime(
      await runProcess(['explain', 'GET', '/user', '--token', '/dev/zero'], { deadlineMs: 12_000 }),
      '/dev/zero: is a character device, not a regular file',
    );
  }, 20_000);

  it('reports a link to /dev/zero inside a checked folder as a source that cannot be read (it grew to 6.5 GB)', async () => {
    const folder = join(dir, 'app');
    mkdirSync(folder);
    symlinkSync('/dev/zero', join(folder, 'calls.js'));
    expectRefusedInTime(
      await runProcess(['check', folder, '--kind', 'fine-grained'], { deadlineMs: 12_000 }),
      `${join(folder, 'calls.js')}: is a character device`,
    );
  }, 20_000);

  it('refuses a FIFO given to validate without waiting for a writer (it blocked forever)', async () => {
    expectRefusedInTime(
      await runProcess(['validate', fifo], { deadlineMs: 12_000 }),
      `${fifo}: is a FIFO, not a regular file`,
    );
  }, 20_000);

  it('refuses a scenario whose `limits` is /dev/zero (it hung)', async () => {
    const scenario = join(dir, 'zero-limits.yaml');
    writeFileSync(
      scenario,
      'seed: 2\nduration_seconds: 60\nlimits: /dev/zero\ncallers:\n  - name: poller\n    token: { kind: classic, user: octocat }\n    behaviour: polite\n    mix: [{ endpoint: "GET /notifications" }]\n',
    );
    expectRefusedInTime(
      await runProcess(['simulate', scenario], { deadlineMs: 12_000 }),
      '/dev/zero: is a character device',
    );
  }, 20_000);
});

describe('files that are not text, or too large', () => {
  it('refuses /bin/ls as a token file in one line (it printed 94 YAML errors)', async () => {
    const result = await run('explain', 'GET', '/user', '--token', '/bin/ls');
    expect(result.code).toBe(2);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^tollgate: \/bin\/ls: is not a text file \(a NUL byte at offset \d+\)\n$/);
  });

  it('refuses a binary scenario and a binary file to validate, still validating the others', async () => {
    const simulated = await run('simulate', '/bin/ls');
    expect(simulated.code).toBe(2);
    expect(simulated.stderr).toMatch(/^tollgate: \/bin\/ls: is not a text file[^\n]*\n$/);
    const validated = await run('validate', '/bin/ls', fifo, 'data/scopes.yaml');
    expect(validated.code).toBe(2);
    expect(validated.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^\/bin\/ls: is not a text file/),
      `${fifo}: is a FIFO, not a regular file; give a file (a link to one is followed)`,
    ]);
    expect(validated.stdout).toBe('data/scopes.yaml: ok (scopes table)\n');
  });

  it('refuses a file over 64 MiB without reading it, saying its size and the limit', async () => {
    const big = join(dir, 'big-overlay.yaml');
    writeFileSync(big, '');
    truncateSync(big, 65 * 1024 * 1024 + 1);
    const result = await run('explain', 'GET', '/user', '--overlay', big);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`tollgate: ${big}: is 66 MiB; files over 64 MiB are refused\n`);
  });

  it('prints at most 20 problems for one file, then how many more', async () => {
    const lines = ['version: 1', 'endpoints:'];
    for (let i = 1; i <= 30; i++) lines.push(`  GET /x${i}:`, '    colour: blue');
    const overlay = join(dir, 'thirty-problems.yaml');
    writeFileSync(overlay, `${lines.join('\n')}\n`);
    for (const result of [
      await run('validate', overlay),
      await run('explain', 'GET', '/x', '--overlay', overlay),
    ]) {
      expect(result.code).toBe(2);
      const problems = result.stderr
        .trimEnd()
        .split('\n')
        .filter((line) => line.startsWith(overlay));
      expect(problems).toHaveLength(21);
      expect(problems.at(-1)).toBe(`${overlay}: (and 10 more problems)`);
    }
  });
});
