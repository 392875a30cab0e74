/** Workflow-command annotations: `::error file=...,line=...,col=...::message`, one per call that is not allowed. */
import type { CheckReport } from './check-calls.js';
import { reportLabel, summaryLine } from './report-summary.js';
import { callText } from './report-text.js';

// Workflow commands end a property at `,` and a line at a newline: both escaped, as the runner expects.
const escapeData = (text: string) =>
  text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
const escapeProperty = (text: string) => escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');

/**
 * Denied and never-callable calls as errors; calls not judged as errors (warnings under
 * `--allow-unjudged`); uncertain as warnings (errors under `--strict`); then a notice per job
 * with its summary and the least block.
 * @example
 * import { githubReport } from './report-github.js';
 * // githubReport(report) -> '::error file=src/bot.ts,line=3,col=7,title=tollgate%3A denied::GET /orgs/{org}/actions/variables: ...\n::notice::...\n'
 */
export function githubReport(report: CheckReport): string {
  const lines: string[] = [];
  const job = report.job === null ? '' : ` (job ${report.job})`;
  for (const result of report.results) {
    const { call, verdict, note } = result;
    if (verdict === 'allowed') continue;
    const failing =
      verdict === 'denied' ||
      verdict === 'never' ||
      (verdict === 'uncertain' && report.strict) ||
      ((verdict === 'unjudged' || verdict === 'unresolved') && !report.allowUnjudged);
    const { file, line, column } = call.origin;
    lines.push(
      `::${failing ? 'error' : 'warning'} file=${escapeProperty(file)},line=${line},col=${column},title=${escapeProperty(`tollgate: ${verdict}${job}`)}::${escapeData(`${callText(result)}: ${note ?? verdict}`)}`,
    );
  }
  const advice = report.workflow?.advice ?? [];
  lines.push(
    `::notice title=tollgate check${escapeProperty(job)}::${escapeData([`${reportLabel(report)}: ${summaryLine(report)}`, ...advice].join('\n'))}`,
  );
  return `${lines.join('\n')}\n`;
}
