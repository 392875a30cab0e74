/** Workflow-command annotations: `::error file=...,line=...,col=...::message`, one per call that is not allowed. */
import type { CheckReport } from './check-calls.js';
import { summaryLine } from './report-summary.js';

// Workflow commands end a property at `,` and a line at a newline: both escaped, as the runner expects.
const escapeData = (text: string) =>
  text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
const escapeProperty = (text: string) => escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');

/**
 * Denied and never-callable calls as errors, uncertain and unresolved as warnings (errors under
 * `--strict`), then a notice with the summary.
 * @example
 * import { githubReport } from './report-github.js';
 * // githubReport(report) -> '::error file=src/bot.ts,line=3,col=7::GET /orgs/{org}/actions/variables: ...\n::notice::3 calls, ...\n'
 */
export function githubReport(report: CheckReport): string {
  const lines: string[] = [];
  for (const { call, verdict, note } of report.results) {
    if (verdict === 'allowed') continue;
    const level = verdict === 'denied' || verdict === 'never' || report.strict ? 'error' : 'warning';
    const what = call.resolved ? `${call.method} ${call.path}` : (call.via ?? 'a call');
    const { file, line, column } = call.origin;
    lines.push(
      `::${level} file=${escapeProperty(file)},line=${line},col=${column},title=${escapeProperty(`tollgate: ${verdict}`)}::${escapeData(`${what}: ${note ?? verdict}`)}`,
    );
  }
  lines.push(`::notice title=tollgate check::${escapeData(`${report.tokenKind}: ${summaryLine(report)}`)}`);
  return `${lines.join('\n')}\n`;
}
