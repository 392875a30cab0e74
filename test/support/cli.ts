// The CLI run in process with string sinks, and scratch files for its input: shared by the CLI tests.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCli } from '../../src/cli/main.js';

/** Runs `tollgate <args>` (not on a terminal) and returns its exit code and output. */
export async function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    isTty: false,
  });
  return { code, stdout, stderr };
}

/** `file(name, text)` writes a scratch file (folders made as needed) in a fresh temporary folder and returns its path. */
export function scratchFiles(prefix: string): (name: string, text: string) => string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return (name, text) => {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return path;
  };
}
