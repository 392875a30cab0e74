/** The JSON report: one object whatever the number of jobs (stable: fields are only ever added). */
import type { CheckReport } from './check-calls.js';
import { countVerdicts } from './check-calls.js';
import { summaryLine } from './report-summary.js';

/**
 * `{ tokenKind, sufficient, passed, strict, allowUnjudged, summary, counts, grant, partial,
 * unused, jobs: [...], calls: [{ job, file, line, column, method, path, resolved, via, verdict,
 * note, graphql, candidates, decision }] }`. With several reports (a workflow's jobs, a step's
 * own token) `grant` and `unused` are null at the top: each job's are in `jobs`.
 * @example
 * import { jsonReport } from './report-json.js';
 * // JSON.parse(jsonReport([report])).grant -> { kind: 'permissions', permissions: { issues: 'read' } }
 */
export function jsonReport(reports: CheckReport | readonly CheckReport[]): string {
  const list = Array.isArray(reports) ? (reports as readonly CheckReport[]) : [reports as CheckReport];
  const only = list.length === 1 ? list[0]! : undefined;
  const results = list.flatMap((report) => report.results);
  const counts = countVerdicts(results);
  const kinds = [...new Set(list.map((report) => report.tokenKind))];
  const document = {
    tokenKind: kinds.length === 1 ? kinds[0] : kinds.join(', '),
    sufficient: list.every((report) => report.sufficient),
    passed: list.every((report) => report.passed),
    strict: list[0]?.strict ?? false,
    allowUnjudged: list[0]?.allowUnjudged ?? false,
    summary:
      only === undefined
        ? `${list.length} jobs; ${results.length} calls, ${counts.allowed} allowed`
        : summaryLine(only),
    counts,
    grant: only?.grant ?? null,
    partial: list.some((report) => report.leftOut.length > 0),
    unused: only?.unused ?? null,
    jobs: list.map((report) => ({
      job: report.job,
      tokenKind: report.tokenKind,
      tokenLabel: report.tokenLabel,
      sufficient: report.sufficient,
      passed: report.passed,
      summary: summaryLine(report),
      counts: report.counts,
      grant: report.grant,
      partial: report.leftOut.length > 0,
      leftOut: report.leftOut.map(
        ({ call }) => `${call.origin.file}:${call.origin.line}:${call.origin.column}`,
      ),
      cannotHold: report.cannotHold,
      unused: report.unused,
      workflow: report.workflow ?? null,
    })),
    calls: list.flatMap((report) =>
      report.results.map(({ call, verdict, note, decision }) => ({
        job: report.job,
        file: call.origin.file,
        line: call.origin.line,
        column: call.origin.column,
        method: call.resolved ? call.method : null,
        path: call.resolved ? call.path : null,
        resolved: call.resolved,
        via: call.via ?? null,
        verdict,
        note,
        graphql: call.graphql ?? null,
        candidates: call.candidates ?? null,
        decision,
      })),
    ),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
