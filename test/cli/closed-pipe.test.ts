// A closed pipe (`tollgate endpoints | head -1`) ends every command quietly: no unhandled EPIPE, no
// stack trace. Real processes whose stdout is closed before the first byte.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const COMMANDS: readonly string[][] = [
  ['endpoints'],
  ['endpoints', '--json'],
  ['explain', 'GET', '/notifications', '--kind', 'classic', '--scope', 'notifications', '--json'],
  ['validate', 'data/permissions.yaml'],
  ['limits', '--kind', 'classic', '--json'],
  ['check', 'examples/ci/calls.yaml', '--kind', 'classic', '--json'],
  ['simulate', 'examples/sim/notifications-poller.yaml', '--json'],
  ['--help'],
  ['--version'],
];

function runClosed(
  script: string,
  args: readonly string[],
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The reader goes away before the first byte: every write meets a closed pipe.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', fail);
    child.on('close', (code) => done({ code, stderr }));
  });
}

describe.concurrent('a closed pipe', () => {
  it('ends `tollgate endpoints | head -1` quietly, through the executable', async () => {
    const { code, stderr } = await runClosed('src/cli/bin.ts', ['endpoints']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  }, 30_000);

  it('ends every command quietly, each with its own exit code', async () => {
    const { code, stderr } = await runClosed('test/support/closed-pipe-runner.ts', [
      JSON.stringify(COMMANDS),
    ]);
    expect(stderr).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
    expect(stderr.trimEnd().split('\n')).toEqual(COMMANDS.map(() => expect.stringMatching(/^exit [01]$/)));
    expect(code).toBe(0);
  }, 30_000);
});
