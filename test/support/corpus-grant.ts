// What `tollgate check` grants a corpus project, read from its JSON report: the grant per job (or per
// token) and, for a workflow job, the `permissions:` block it prints. Held against the `grant.computed`
// each expectations.yaml records (test/check/corpus-grant.test.ts), so a change to a grant is deliberate.
import { join } from 'node:path';
import { runCli } from '../../src/cli/main.js';
import type { CorpusProject, GrantEntry } from './corpus-types.js';

/** True when every counted call stands in a workflow file or a composite action's `action.yml`. */
function onlyWorkflows(project: CorpusProject): boolean {
  return project.callFiles.every(
    (file) => file.startsWith('.github/workflows/') || file.endsWith('action.yml'),
  );
}

/**
 * The arguments a user gives `check` for the project: workflows are judged as the service runs them
 * (each job with its own workflow token; a step's own token with `--step-token-kind`), other code
 * with `--kind` the project's token kind. `--allow-unjudged` so the grant prints whatever is unjudged.
 * @example
 * import { loadCorpusProject } from './corpus.js';
 * import { grantArgs } from './corpus-grant.js';
 * grantArgs(loadCorpusProject('probot__stale')); // ['check', '.../index.js', ..., '--kind', 'app-installation', ...]
 */
export function grantArgs(project: CorpusProject): string[] {
  const files = project.callFiles.map((file) => join(project.dir, file));
  const flags = ['--json', '--allow-unjudged'];
  if (!onlyWorkflows(project)) return ['check', ...files, '--kind', project.tokenKind, ...flags];
  const stepKinds = new Set(project.calls.flatMap((call) => (call.tokenKind ? [call.tokenKind] : [])));
  if (project.tokenKind !== 'workflow') stepKinds.add(project.tokenKind);
  if (stepKinds.size > 1) throw new Error(`${project.id}: steps run with several token kinds`);
  return ['check', ...files, ...[...stepKinds].flatMap((kind) => ['--step-token-kind', kind]), ...flags];
}

interface JobReport {
  readonly job: string | null;
  readonly tokenLabel: string;
  readonly summary: string;
  readonly workflow: { readonly leastText: string } | null;
}

/**
 * Runs `check` on the project in this process and returns its grant per job, as it prints it.
 * @example
 * import { loadCorpusProject } from './corpus.js';
 * import { computedGrant } from './corpus-grant.js';
 * await computedGrant(loadCorpusProject('probot__stale')); // [{ job: null, token: 'app-installation', grant: 'grant (partial: ...): issues=write' }]
 */
export async function computedGrant(project: CorpusProject): Promise<GrantEntry[]> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(grantArgs(project), {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    isTty: false,
  });
  // 1 is a verdict (a call refused under the job's own `permissions:`), not a failure to judge.
  if (code !== 0 && code !== 1) throw new Error(`${project.id}: check exited ${code}: ${stderr.trim()}`);
  const report = JSON.parse(stdout) as { jobs: JobReport[] };
  return report.jobs.map((job) => ({
    job: job.job,
    token: job.tokenLabel,
    grant: job.summary.slice(job.summary.indexOf('grant')),
    ...(job.workflow ? { block: job.workflow.leastText } : {}),
  }));
}
