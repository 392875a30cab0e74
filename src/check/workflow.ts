/** Workflow files and composite actions: per job, the workflow token its `permissions:` grant, and the calls its steps make. */
import { isMap, isScalar, type Scalar } from 'yaml';
import type { Issue } from '../core/issue.js';
import type { PolicyTables } from '../policy/tables.js';
import { readYaml } from '../tables/yaml-bounds.js';
import { nodeFinder } from '../tables/yaml-keys.js';
import { type Call, inputError, type Origin, type SourceCalls, type WorkflowGrant } from './call.js';
import type { OctokitRoute } from './octokit-routes.js';
import { readBlock } from './workflow-block.js';
import { seedPermissions, shorthandBlock } from './workflow-keys.js';
import { readSteps } from './workflow-steps.js';

/**
 * The permissions a workflow states nowhere: not shown by the seeds (the service's default depends
 * on the repository's settings). tollgate's choice, flagged in every report: `read-all`.
 */
export const DEFAULT_WORKFLOW_PERMISSIONS = 'read-all';

/** True for a path under a `workflows` folder with a YAML extension. */
export function isWorkflowPath(file: string): boolean {
  return /(^|[\\/])workflows[\\/][^\\/]+\.ya?ml$/.test(file);
}

/** True for an action's metadata file (`action.yml` or `action.yaml`). */
export function isActionPath(file: string): boolean {
  return /(^|[\\/])action\.ya?ml$/.test(file);
}

type Range = { range?: [number, number, number] };

/**
 * Reads a workflow (or a composite action's `action.yml`, one job named after the action): per
 * job, the workflow token its `permissions:` grant in the workflow vocabulary (the job's over the
 * workflow's; `read-all`, `write-all`, `{}`, or `key: read|write|none`; absent: the default
 * above), the calls of its `actions/github-script` scripts (`${{ }}` expressions anywhere) and
 * `gh api` commands, the calls made with a step's own token apart, and the steps it cannot see into.
 * @example
 * import { octokitRoutes } from './octokit-routes.js';
 * import { readWorkflow } from './workflow.js';
 * import { shippedTables } from 'tollgate';
 * const text = 'on: push\npermissions: { issues: write }\njobs:\n  triage:\n    runs-on: x\n    steps:\n      - uses: actions/github-script@v7\n        with:\n          script: |\n            await github.rest.issues.createComment({ owner, repo, issue_number: 1, body: "hi" });\n';
 * const { calls, grants } = readWorkflow(text, '.service/workflows/triage.yml', shippedTables(), await octokitRoutes());
 * grants[0]?.block; // { issues: 'write' }
 * calls[0]?.origin.line; // 10
 */
export function readWorkflow(
  text: string,
  file: string,
  _tables: PolicyTables,
  routes: ReadonlyMap<string, OctokitRoute>,
  /** `true` in a folder scan: an action that is not composite holds no calls (its code does). */
  skipCodeActions = false,
): SourceCalls {
  const read = readYaml(text, file);
  if (read.document === null || read.issues.length > 0) throw inputError(read.issues);
  const at = (offset: number | undefined): Origin => read.at(offset ?? 0);
  // Every lookup by path through one index per map: yaml's getIn scans a map's pairs each time,
  // which made a workflow of 8,000 jobs take 9 s (each job looks itself up several times).
  const document = nodeFinder(read.document);
  const issues: Issue[] = [];
  const rangeOf = (path: (string | number)[]) =>
    (document.getIn(path, true) as Range | undefined)?.range?.[0];
  const lines = text.split('\n');
  const grants: WorkflowGrant[] = [];
  const calls: Call[] = [];
  const context = { file, lines, at, routes };

  const using = document.getIn(['runs', 'using']);
  if (using !== undefined) {
    if (using !== 'composite' && skipCodeActions) return { calls: [], grants: [] };
    if (using !== 'composite')
      throw inputError([
        {
          code: 'not_composite',
          message: `the action runs \`${String(using)}\`, not \`composite\`: its calls are in its code`,
          hint: 'check the action’s source folder (e.g. `src/`) instead of its action.yml',
          path: ['runs', 'using'],
          source: at(rangeOf(['runs', 'using'])),
        },
      ]);
    const name = document.getIn(['name']);
    const job = typeof name === 'string' ? name : 'action';
    const inputDefault = (expression: string) => {
      const input = /^\$\{\{\s*inputs\.([A-Za-z0-9_-]+)\s*\}\}$/.exec(expression.trim())?.[1];
      const value = input === undefined ? undefined : document.getIn(['inputs', input, 'default']);
      return typeof value === 'string' ? value : undefined;
    };
    const steps = readSteps(document, ['runs', 'steps'], job, { ...context, envPaths: [], inputDefault });
    calls.push(...steps.calls, ...steps.stepTokens.flatMap((s) => s.calls));
    const block = shorthandBlock('read');
    grants.push({
      file,
      job,
      permissions: seedPermissions(block),
      block,
      origin: at(rangeOf(['runs'])),
      defaulted: true,
      composite: true,
      ...steps,
    });
    return { calls, grants };
  }

  const jobs = document.getIn(['jobs'], true);
  if (!isMap(jobs) || jobs.items.length === 0)
    throw inputError([
      {
        code: 'no_jobs',
        message: 'a workflow needs `jobs:` with at least one job',
        hint: 'or a composite action: `runs: { using: composite, steps: [...] }`',
        path: ['jobs'],
        source: at(rangeOf(['jobs']) ?? 0),
      },
    ]);
  const workflowBlock = readBlock(document, ['permissions'], at, issues);
  for (const pair of jobs.items) {
    const job = isScalar(pair.key) ? String((pair.key as Scalar).value) : '';
    const jobBlock = readBlock(document, ['jobs', job, 'permissions'], at, issues);
    const stated = jobBlock ?? workflowBlock;
    const block = stated ?? shorthandBlock('read');
    const steps = readSteps(document, ['jobs', job, 'steps'], job, {
      ...context,
      envPaths: [['jobs', job, 'env'], ['env']],
    });
    // A job that calls a reusable workflow hands it its token: what it needs is not in this file.
    const reusable = document.getIn(['jobs', job, 'uses']);
    if (typeof reusable === 'string')
      steps.opaque.push(`the job calls the reusable workflow \`${reusable}\``);
    calls.push(...steps.calls, ...steps.stepTokens.flatMap((s) => s.calls));
    grants.push({
      file,
      job,
      permissions: seedPermissions(block),
      block,
      origin: at(
        rangeOf(['jobs', job, 'permissions']) ?? rangeOf(['permissions']) ?? (pair.key as Range).range?.[0],
      ),
      defaulted: stated === undefined,
      composite: false,
      ...steps,
    });
  }
  if (issues.length > 0) throw inputError(issues);
  return { calls, grants };
}
