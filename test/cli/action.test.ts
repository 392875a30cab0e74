// The composite Action at the repository root: its step runs `tollgate check` with the inputs it
// is given, writing annotations or a SARIF file. The step's own script runs here in bash, with
// `npx tollgate@version` pointed at this checkout.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: workflow expressions `${{ }}` are the input under test
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { run } from '../support/cli.js';

const root = resolve(import.meta.dirname, '..', '..');
const action = parse(readFileSync(join(root, 'action.yml'), 'utf8'));
const scratch = mkdtempSync(join(tmpdir(), 'tollgate-action-sarif-'));

function runStep(inputs: Record<string, string>) {
  const work = mkdtempSync(join(tmpdir(), 'tollgate-action-'));
  // `npx --yes tollgate@x check ...` -> this checkout's CLI.
  const shim = join(work, 'npx');
  writeFileSync(
    shim,
    `#!/usr/bin/env bash\nshift 2\nexec "${process.execPath}" --import tsx "${root}/src/cli/bin.ts" "$@"\n`,
  );
  chmodSync(shim, 0o755);
  const [step] = action.runs.steps;
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(step.env as Record<string, string>)) {
    const input = /^\$\{\{ inputs\.([a-z-]+) \}\}$/.exec(value)![1]!;
    env[name] = inputs[input] ?? action.inputs[input].default;
  }
  const output = join(work, 'output');
  writeFileSync(output, '');
  const result = spawnSync('bash', ['-c', step.run], {
    cwd: root,
    encoding: 'utf8',
    env: {
      ...process.env,
      ...env,
      PATH: `${work}:${process.env.PATH}`,
      GITHUB_ACTION_PATH: root,
      GITHUB_OUTPUT: output,
    },
  });
  return { ...result, output: readFileSync(output, 'utf8'), work };
}

describe('the composite action (action.yml)', () => {
  it('is a composite action with inputs for sources, token file or kind, and format', () => {
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs)).toEqual(
      expect.arrayContaining([
        'sources',
        'token-file',
        'token-kind',
        'format',
        'sarif-file',
        'allow-unjudged',
      ]),
    );
    expect(action.outputs['sarif-file'].value).toBe('${{ steps.check.outputs.sarif-file }}');
  });

  it('writes annotations and fails the step when a call is refused', () => {
    const result = runStep({ sources: 'examples/ci/workflows/triage.yml' });
    expect(result.stdout).toMatch(/^::error file=examples\/ci\/workflows\/triage\.yml,line=17,/m);
    expect(result.status).toBe(1);
  }, 30_000);

  it('writes a SARIF file for upload and names it in its output, with a token file', () => {
    const result = runStep({
      sources: 'examples/ci/bot',
      'token-file': 'examples/ci/bot-token.yaml',
      format: 'sarif',
      'sarif-file': join(scratch, 'tollgate.sarif'),
      'allow-unjudged': 'true',
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.output).toBe(`sarif-file=${join(scratch, 'tollgate.sarif')}\n`);
    const log = JSON.parse(readFileSync(join(scratch, 'tollgate.sarif'), 'utf8'));
    expect(log.runs[0].results.map((r: { ruleId: string }) => r.ruleId)).toContain('unresolved');
  }, 30_000);

  it('is itself read by `tollgate check` as a composite action', async () => {
    const { code, stdout } = await run('check', 'action.yml');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^job tollgate check:$/m);
  });
});
