/** The one-line summary every format shares: counts, the grant, what is unused. */
import type { CheckReport, Grant } from './check-calls.js';

/** `issues=read, metadata=read`, or `repo, notifications`; `(nothing)` for an empty grant. */
export function grantText(grant: Grant): string {
  const parts =
    grant.kind === 'scopes'
      ? [...grant.scopes]
      : Object.entries(grant.permissions).map(([slug, level]) => `${slug}=${level}`);
  return parts.length === 0 ? '(nothing)' : parts.join(', ');
}

/** The report's grant in one phrase: in workflow keys for a workflow job, partial when calls were left out. */
function grantPhrase(report: CheckReport): string {
  const { workflow } = report;
  let text =
    workflow === undefined
      ? grantText(report.grant)
      : Object.keys(workflow.least).length === 0
        ? '(nothing)'
        : Object.entries(workflow.least)
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([key, level]) => `${key}: ${level}`)
            .join(', ');
  if (workflow !== undefined && workflow.cannotHold.length > 0)
    text += ` (a workflow token cannot hold ${workflow.cannotHold.join(', ')})`;
  const left = report.leftOut.length;
  return left === 0
    ? `grant: ${text}`
    : `grant (partial: leaves out ${left} call${left === 1 ? '' : 's'} not judged): ${text}`;
}

/**
 * "7 calls, 6 allowed, 1 denied; grant: issues=read, metadata=read; unused: contents=write".
 * @example
 * import { summaryLine } from './report-summary.js';
 * const counts = { allowed: 1, denied: 0, never: 0, uncertain: 0, unresolved: 0, unjudged: 0 };
 * summaryLine({ tokenKind: 'fine-grained', results: [], grant: { kind: 'permissions', permissions: { issues: 'read' } }, leftOut: [], unused: [], counts, sufficient: true, passed: true, strict: false, allowUnjudged: false, cannotHold: [], job: null, tokenLabel: 'fine-grained' });
 * // '1 call, 1 allowed; grant: issues=read'
 */
export function summaryLine(report: CheckReport): string {
  const { counts } = report;
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const parts = [`${total} call${total === 1 ? '' : 's'}`, `${counts.allowed} allowed`];
  for (const verdict of ['denied', 'never', 'uncertain', 'unresolved', 'unjudged'] as const)
    if (counts[verdict] > 0)
      parts.push(
        `${counts[verdict]} ${verdict === 'never' ? 'never callable' : verdict === 'unjudged' ? 'not judged' : verdict}`,
      );
  let line = `${parts.join(', ')}; ${grantPhrase(report)}`;
  if (report.unused !== null && report.unused.length > 0) line += `; unused: ${report.unused.join(', ')}`;
  return line;
}

/** Who a report is for: `job \`triage\` (workflow)`, or the token kind alone. */
export function reportLabel(report: CheckReport): string {
  return report.job === null ? report.tokenLabel : `${report.job}: ${report.tokenLabel}`;
}
