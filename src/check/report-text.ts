/** The human report: a table of calls, then the summary line. Colour only on a terminal. */
import type { CheckReport, Verdict } from './check-calls.js';
import { summaryLine } from './report-summary.js';

const COLOURS: Readonly<Record<Verdict, string>> = {
  allowed: '\x1b[32m',
  denied: '\x1b[31m',
  never: '\x1b[31m',
  uncertain: '\x1b[33m',
  unresolved: '\x1b[33m',
};

/**
 * The report as text lines; `colour` for a terminal.
 * @example
 * import { textReport } from './report-text.js';
 * // textReport(report, false) -> ['bot.ts:3:7  GET /repos/{owner}/{repo}/issues/events  allowed', ..., '3 calls, 3 allowed; grant: issues=read']
 */
export function textReport(report: CheckReport, colour: boolean): string {
  const rows = report.results.map((result) => {
    const { call } = result;
    const where = `${call.origin.file}:${call.origin.line}:${call.origin.column}`;
    const what = call.resolved ? `${call.method} ${call.path}` : `${call.via ?? 'a call'} (not resolved)`;
    const verdict = colour ? `${COLOURS[result.verdict]}${result.verdict}\x1b[0m` : result.verdict;
    return { where, what, verdict, note: result.note };
  });
  const whereWidth = Math.max(0, ...rows.map((row) => row.where.length));
  const whatWidth = Math.max(0, ...rows.map((row) => row.what.length));
  const lines = rows.map(
    (row) =>
      `${row.where.padEnd(whereWidth)}  ${row.what.padEnd(whatWidth)}  ${row.verdict}${row.note === null ? '' : `  ${row.note}`}`,
  );
  lines.push(`${report.tokenKind}: ${summaryLine(report)}`);
  return `${lines.join('\n')}\n`;
}
