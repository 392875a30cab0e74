// The workflow files and composite actions of the real projects in test/fixtures/real (copied with
// their licences) are all read: `${{ }}` outside strings, the real `permissions:` keys, `gh`
// commands, actions of their own. None stops the run; each job is judged with its block.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: workflow expressions `${{ }}` are the input under test
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { shippedTables } from 'tollgate';
import { describe, expect, it } from 'vitest';
import { readSources } from '../../src/check/read-sources.js';
import { run } from '../support/cli.js';

const REAL = 'test/fixtures/real';

/** Every workflow file and action.yml of the corpus. */
function workflowFiles(): string[] {
  const found: string[] = [];
  const pending = [REAL];
  while (pending.length > 0) {
    const folder = pending.pop()!;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (/[\\/]workflows[\\/][^\\/]+\.ya?ml$|[\\/]action\.ya?ml$/.test(path)) found.push(path);
    }
  }
  return found.sort();
}

describe('real workflow files', () => {
  const files = workflowFiles();

  it('finds the corpus’s workflows and composite actions', () => {
    expect(files.length).toBeGreaterThanOrEqual(5);
    expect(files.some((file) => file.endsWith('action.yml'))).toBe(true);
  });

  it('reads every one of them without a problem, one job report per job', async () => {
    const { grants, problems } = await readSources(files, shippedTables());
    expect(problems).toEqual([]);
    expect(new Set(grants.map((grant) => grant.file))).toEqual(new Set(files));
  });

  it('judges electron’s workflows: a step’s app token apart from the workflow token, and `gh` commands as opaque', async () => {
    const { stdout } = await run('check', `${REAL}/electron__electron`, '--json');
    const report = JSON.parse(stdout);
    const setLabels = report.jobs.find((job: { job: string }) => job.job.startsWith('set-labels ('));
    expect(setLabels.job).toBe('set-labels (token ${{ steps.generate-token.outputs.token }})');
    const created = report.jobs.find((job: { job: string }) => job.job === 'release-branch-created');
    expect(created.workflow.unusedWithheld).toMatch(/`run:` uses the token \(`gh \w+/);
  });
});
