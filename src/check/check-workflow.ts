/** Judges a workflow job's calls with its workflow token, in the workflow `permissions:` vocabulary. */
import type { Level, TokenKind } from '../core/token.js';
import type { Policy } from '../policy/authorize.js';
import type { Call, WorkflowGrant } from './call.js';
import { type CheckReport, checkCalls } from './check-calls.js';

export type { WorkflowAdvice } from './workflow-advice.js';

import {
  blockText,
  WORKFLOW_KEYS,
  WORKFLOW_TOKEN_ALTERNATIVE,
  workflowBlock,
  workflowCanHold,
} from './workflow-keys.js';

export interface WorkflowCheckOptions {
  readonly policy: Policy;
  readonly strict?: boolean;
  readonly allowUnjudged?: boolean;
  /** The kind of the tokens steps are given (`github-token:`, `GH_TOKEN`); without it, their calls are not judged. */
  readonly stepTokenKind?: TokenKind;
}

const HOLDS = {
  canHold: workflowCanHold,
  token: 'a workflow token',
  alternative: WORKFLOW_TOKEN_ALTERNATIVE,
};

function unusedKeys(held: Readonly<Record<string, Level>>, least: Readonly<Record<string, Level>>): string[] {
  const unused: string[] = [];
  for (const [key, level] of Object.entries(held)) {
    // Keys whose permission the seeds lack judge nothing: never called unused.
    if (WORKFLOW_KEYS.get(key)?.grants === undefined) continue;
    if (least[key] === undefined) unused.push(`${key}: ${level}`);
    else if (level === 'write' && least[key] === 'read') unused.push(`${key}: write (read suffices)`);
  }
  return unused;
}

/**
 * The reports of one job: its workflow-token calls, then each step's own token (judged as
 * `stepTokenKind`, or listed as not judged).
 * @example
 * import { createPolicy, shippedTables } from 'tollgate';
 * import { checkWorkflowJob } from './check-workflow.js';
 * const origin = { file: 'ci.yml', line: 9, column: 13 };
 * const call = { method: 'GET', path: '/repos/{owner}/{repo}/issues/events', origin, resolved: true };
 * const job = { file: 'ci.yml', job: 'triage', permissions: { issues: 'write', metadata: 'read' }, block: { issues: 'write' }, origin, defaulted: false, composite: false, calls: [call], stepTokens: [], opaque: [] } as const;
 * checkWorkflowJob(job, { policy: createPolicy(shippedTables()) })[0]?.workflow?.leastText;
 * // 'permissions:\n  issues: read'
 */
export function checkWorkflowJob(grant: WorkflowGrant, options: WorkflowCheckOptions): CheckReport[] {
  const { policy } = options;
  const common = { policy, strict: options.strict === true, allowUnjudged: options.allowUnjudged === true };
  const token = { kind: 'workflow' as const, permissions: grant.permissions, repositories: 'all' as const };
  const report = checkCalls(grant.calls, { ...common, token, holds: HOLDS, job: grant.job });
  const permissions = report.grant.kind === 'permissions' ? report.grant.permissions : {};
  const { block: least } = workflowBlock(permissions);
  const reasons: string[] = [];
  if (grant.opaque.length > 0) reasons.push(`${grant.opaque.join(', ')} may need what the token holds`);
  if (report.leftOut.length > 0)
    reasons.push(
      `${report.leftOut.length} call${report.leftOut.length === 1 ? '' : 's'} not judged may need it`,
    );
  const advice: string[] = [];
  const leastText = blockText(least);
  if (grant.composite)
    advice.push(
      `the workflow that uses this action grants its token; its calls need at least:\n${leastText}`,
    );
  else if (grant.defaulted) {
    const states = `job \`${grant.job}\` states no \`permissions:\` (the service's default depends on the repository's settings; tollgate judged with read-all)`;
    // A step tollgate cannot read (an action, a command handed the token), or a call it could not
    // judge, runs on the default token today: a block of the judged calls alone could take from it
    // what it needs (found on a real workflow: `uses: ./` of create-pull-request, advised
    // `permissions: {}`; the review found the same for calls not judged).
    advice.push(
      reasons.length === 0
        ? `${states}: add the least block:\n${leastText}`
        : `${states}: ${reasons.join('; ')}; add what those need to the least block of the judged calls before stating it${Object.keys(least).length === 0 ? ' (`permissions: {}` alone would leave them no permission)' : ''}:\n${leastText}`,
    );
  }
  if (report.cannotHold.length > 0)
    advice.push(
      `a workflow token cannot hold ${report.cannotHold.map((p) => `\`${p}\``).join(', ')}: use ${WORKFLOW_TOKEN_ALTERNATIVE}`,
    );
  if (grant.opaque.length > 0 && !grant.defaulted)
    advice.push(`"unused" is not computed: ${reasons.join('; ')}`);
  const withheld = grant.defaulted
    ? 'the job states no `permissions:`'
    : reasons.length > 0
      ? reasons.join('; ')
      : null;
  const unused = withheld === null ? unusedKeys(grant.block, least) : null;
  const reports: CheckReport[] = [
    {
      ...report,
      unused,
      workflow: {
        file: grant.file,
        composite: grant.composite,
        defaulted: grant.defaulted,
        held: grant.block,
        least,
        leastText,
        cannotHold: report.cannotHold,
        unusedWithheld: withheld,
        advice,
      },
    },
  ];
  for (const step of grant.stepTokens) {
    const job = `${grant.job} (token ${step.expression})`;
    if (options.stepTokenKind !== undefined) {
      reports.push(checkCalls(step.calls, { ...common, kind: options.stepTokenKind, job }));
      continue;
    }
    const calls: Call[] = step.calls.map((call) => ({
      ...call,
      reason: `the step uses its own token \`${step.expression}\`: give --step-token-kind K to judge it`,
    }));
    reports.push(checkCalls(calls, { ...common, kind: 'fine-grained', job, tokenLabel: 'kind not given' }));
  }
  return reports;
}
