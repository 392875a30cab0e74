// A closed pipe (`tollgate endpoints | head -1`) ends every command quietly: no unhandled EPIPE, no
// stack trace. The real executable runs in a child process whose stdout is closed at once.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const COMMANDS: readonly string[][] = [
  ['endpoints'],
  ['endpoints', '--json'],
  ['explain', 'GET', '/notifications', '--kind', 'classic', '--scope', 'notifications', '--json'],
  ['validate', 'data/permissions.yaml'],
  ['limits', '--kind', 'classic', '--json'],
  ['check', 'examples/ci/calls.yaml', '--kind', 'classic', '--json'],
  ['simulate', '--help'],
  ['--help'],
  ['--version'],
];

function runClosed(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', ...args], {
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
  it.each(COMMANDS.map((args) => [args.join(' '), args]))(
    '`tollgate %s | head -1` ends quietly',
    async (_, args) => {
      const { code, stderr } = await runClosed(args as string[]);
      expect(stderr).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
      expect([0, 1]).toContain(code);
    },
    30_000,
  );
});
