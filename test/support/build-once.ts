// Builds dist/ once per vitest run, however many test files (in however many workers) need it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const projectRoot = join(import.meta.dirname, '..', '..');

const cache = join(projectRoot, 'node_modules', '.cache', 'tollgate-tests');
const stamp = join(cache, 'built-for-run');
const lock = join(cache, 'build.lock');
// Workers are forks of the one vitest process, so their parent's pid names the run.
const runId = String(process.ppid);

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function readStamp(): string | undefined {
  try {
    return readFileSync(stamp, 'utf8');
  } catch {
    return undefined;
  }
}

/** Runs `npm run build` unless another test file of this run already did. */
export function buildOnce(): void {
  mkdirSync(cache, { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock older than the longest build is left by a killed run.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 180_000) rmSync(lock, { recursive: true, force: true });
      } catch {}
      pause(200);
    }
  }
  try {
    if (readStamp() === runId) return;
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: projectRoot, stdio: 'pipe' });
    writeFileSync(stamp, runId);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
