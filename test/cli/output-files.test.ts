// Output files (`simulate --html`, `check --write-overlay`) and stdout that cannot be written: one
// line naming the path and why, exit 2, nothing half-written and no temporary file left behind.
// Regression tests for a new user's trial: an unwritable --html exited 70 "internal error: ENOENT",
// `ulimit -f 10` left a truncated page, and `tollgate endpoints > /dev/full` exited 0.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../support/cli.js';
import { runProcess } from '../support/cli-process.js';

const root = mkdtempSync(join(tmpdir(), 'tollgate-output-'));
const SCENARIO = 'examples/sim/notifications-poller.yaml';
let folders = 0;
const freshFolder = () => {
  const path = join(root, `case-${++folders}`);
  mkdirSync(path);
  return path;
};

function expectOneLine(result: { code: number | null; stderr: string }, ...fragments: string[]) {
  expect(result.code).toBe(2);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at |internal error/);
  for (const fragment of fragments) expect(result.stderr).toContain(fragment);
}

describe('an output file that cannot be written', () => {
  it('refuses --html in a folder that does not exist before the run: one line, exit 2 (it exited 70)', async () => {
    const folder = freshFolder();
    const target = join(folder, 'missing', 'x.html');
    const result = await run('simulate', SCENARIO, '--html', target);
    expectOneLine(result, `--html: cannot write \`${target}\``, `no folder \`${join(folder, 'missing')}\``);
    expect(result.stdout).toBe('');
    expect(readdirSync(folder)).toEqual([]);
  });

  it.each([
    ['a folder', () => freshFolder(), 'it is a folder'],
    ['a device', () => '/dev/full', 'it is a character device'],
    ['an empty name', () => '', 'the file name is empty'],
  ])('refuses --html naming %s', async (_, target, reason) => {
    const result = await run('simulate', SCENARIO, '--html', target());
    expectOneLine(result, '--html', reason);
  });

  it('refuses --html in a folder it may not write', async () => {
    // Root writes through a folder's mode bits; sysfs refuses a new file even to root.
    const asRoot = process.getuid?.() === 0;
    const folder = asRoot ? '/sys' : freshFolder();
    if (!asRoot) chmodSync(folder, 0o555);
    const before = readdirSync(folder);
    const result = await run('simulate', SCENARIO, '--html', join(folder, 'x.html'));
    expectOneLine(result, 'permission denied');
    expect(readdirSync(folder)).toEqual(before);
  });

  it('refuses --write-overlay in a folder that does not exist before reading the sources', async () => {
    const target = join(freshFolder(), 'missing', 'overlay.yaml');
    const result = await run(
      'check',
      'examples/ci/calls.yaml',
      '--kind',
      'classic',
      '--write-overlay',
      target,
    );
    expectOneLine(result, `--write-overlay: cannot write \`${target}\``);
    expect(result.stdout).toBe('');
  });

  it('leaves no page and no temporary file when the page outgrows `ulimit -f` (it left a truncated page), and still prints the report', async () => {
    const folder = freshFolder();
    const result = await runProcess(['simulate', SCENARIO, '--html', join(folder, 'x.html')], {
      shellPrefix: 'ulimit -f 10',
    });
    expect(result.stdout).toContain('simulated');
    expectOneLine(result, `cannot write \`${join(folder, 'x.html')}\``, 'over the file size limit');
    expect(readdirSync(folder)).toEqual([]);
  }, 30_000);

  it('replaces an existing page whole, leaving no temporary file', async () => {
    const folder = freshFolder();
    const target = join(folder, 'x.html');
    writeFileSync(target, 'old');
    const result = await run('simulate', SCENARIO, '--html', target);
    expect(result.code).toBe(0);
    expect(readFileSync(target, 'utf8')).toMatch(/^<!doctype html>[\s\S]*<\/html>\n?$/i);
    expect(readdirSync(folder)).toEqual(['x.html']);
  });
});

describe.concurrent('stdout that cannot be written', () => {
  it.each([
    [['endpoints']],
    [['explain', 'GET', '/notifications', '--kind', 'classic', '--scope', 'notifications']],
    [['simulate', SCENARIO]],
  ])(
    'fails %j on a full disk (/dev/full; it exited 0), in one line',
    async (args) => {
      const result = await runProcess(args, { stdoutFile: '/dev/full' });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe('tollgate: cannot write to stdout: no space left on the device (ENOSPC)\n');
    },
    30_000,
  );
});
