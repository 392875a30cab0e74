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

/**
 * "7 calls, 6 allowed, 1 denied; grant: issues=read, metadata=read; unused: contents=write".
 * @example
 * import { summaryLine } from './report-summary.js';
 * const counts = { allowed: 1, denied: 0, never: 0, uncertain: 0, unresolved: 0 };
 * summaryLine({ tokenKind: 'fine-grained', results: [], grant: { kind: 'permissions', permissions: { issues: 'read' } }, unused: [], counts, sufficient: true, strict: false });
 * // '1 call, 1 allowed; grant: issues=read'
 */
export function summaryLine(report: CheckReport): string {
  const { counts } = report;
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const parts = [`${total} call${total === 1 ? '' : 's'}`, `${counts.allowed} allowed`];
  for (const verdict of ['denied', 'never', 'uncertain', 'unresolved'] as const)
    if (counts[verdict] > 0)
      parts.push(`${counts[verdict]} ${verdict === 'never' ? 'never callable' : verdict}`);
  let line = `${parts.join(', ')}; grant: ${grantText(report.grant)}`;
  if (report.unused !== null && report.unused.length > 0) line += `; unused: ${report.unused.join(', ')}`;
  return line;
}
