/** The JSON report (stable: fields are only ever added). */
import type { CheckReport } from './check-calls.js';
import { summaryLine } from './report-summary.js';

/**
 * `{ tokenKind, sufficient, strict, summary, counts, grant, unused, calls: [{ file, line, column,
 * method, path, resolved, via, verdict, note, decision }] }`; an array of those for several
 * reports (one per workflow job).
 * @example
 * import { jsonReport } from './report-json.js';
 * // JSON.parse(jsonReport(report)).grant -> { kind: 'permissions', permissions: { issues: 'read' } }
 */
export function jsonReport(reports: CheckReport | readonly CheckReport[]): string {
  const list = Array.isArray(reports) ? reports : [reports as CheckReport];
  const documents = list.map(reportObject);
  // One report is one object; several (a workflow's jobs) an array of them.
  return `${JSON.stringify(documents.length === 1 ? documents[0] : documents, null, 2)}\n`;
}

function reportObject(report: CheckReport) {
  return {
    tokenKind: report.tokenKind,
    sufficient: report.sufficient,
    strict: report.strict,
    summary: summaryLine(report),
    counts: report.counts,
    grant: report.grant,
    unused: report.unused,
    calls: report.results.map(({ call, verdict, note, decision }) => ({
      file: call.origin.file,
      line: call.origin.line,
      column: call.origin.column,
      method: call.resolved ? call.method : null,
      path: call.resolved ? call.path : null,
      resolved: call.resolved,
      via: call.via ?? null,
      verdict,
      note,
      decision,
    })),
  };
}
