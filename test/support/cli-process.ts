// The CLI run as a real process (`node --import tsx src/cli/bin.ts`), killed after a deadline: for
// inputs that could block or grow without end (a FIFO, /dev/zero) and for real output streams.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

export interface ProcessResult {
  /** The exit code; null when the process was killed at the deadline. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly milliseconds: number;
}

/**
 * Runs `tollgate <args>`, its stdout to `stdoutFile` when given (e.g. /dev/full), killed with
 * SIGKILL after `deadlineMs`. `shellPrefix` runs it under `sh -c '<prefix>; exec node ...'`
 * (for `ulimit -f 10`).
 */
export function runProcess(
  args: readonly string[],
  options: { deadlineMs?: number; stdoutFile?: string; shellPrefix?: string } = {},
): Promise<ProcessResult> {
  const started = Date.now();
  const node = [process.execPath, '--import', 'tsx', join(root, 'src/cli/bin.ts'), ...args];
  const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;
  const [command, ...rest] =
    options.shellPrefix === undefined
      ? node
      : ['sh', '-c', `${options.shellPrefix}; exec ${node.map(quote).join(' ')}`];
  const out = options.stdoutFile === undefined ? 'pipe' : openSync(options.stdoutFile, 'w');
  return new Promise((done, fail) => {
    const child = spawn(command!, rest, { cwd: root, stdio: ['ignore', out, 'pipe'] });
    if (typeof out === 'number') closeSync(out);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.deadlineMs ?? 15_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, milliseconds: Date.now() - started });
    });
  });
}
