/** The human report: per job, a table of calls, then the summary line and any advice. Colour only on a terminal. */

import { escapeControl } from '../core/escape-control.js';
import type { CheckReport } from './check-calls.js';
import type { Verdict } from './judge-call.js';
import { reportLabel, summaryLine } from './report-summary.js';

const COLOURS: Readonly<Record<Verdict, string>> = {
  allowed: '\x1b[32m',
  denied: '\x1b[31m',
  never: '\x1b[31m',
  uncertain: '\x1b[33m',
  unresolved: '\x1b[33m',
  unjudged: '\x1b[33m',
};

/** What a call is, in one phrase: `GET /path`, or how it was found when its route was not read. */
export function callText(result: CheckReport['results'][number]): string {
  const { call } = result;
  if (call.graphql !== undefined) return `GraphQL ${call.graphql.operation} (${call.via ?? 'POST /graphql'})`;
  return call.resolved ? `${call.method} ${call.path}` : `${call.via ?? 'a call'} (not resolved)`;
}

/**
 * The report as text lines; `colour` for a terminal. Input (file names, routes) is shown with
 * control characters escaped.
 * @example
 * import { textReport } from './report-text.js';
 * // textReport(report, false) -> 'bot.ts:3:7  GET /repos/{owner}/{repo}/issues/events  allowed\n...\nfine-grained: 3 calls, 3 allowed; grant: issues=read\n'
 */
export function textReport(report: CheckReport, colour: boolean): string {
  const rows = report.results.map((result) => {
    const { call } = result;
    const where = escapeControl(`${call.origin.file}:${call.origin.line}:${call.origin.column}`);
    const what = escapeControl(callText(result));
    const verdict = colour ? `${COLOURS[result.verdict]}${result.verdict}\x1b[0m` : result.verdict;
    return { where, what, verdict, note: result.note === null ? null : escapeControl(result.note) };
  });
  // Loops, not spreads: a spread of 200,000 rows into one call overflows the stack.
  let whereWidth = 0;
  let whatWidth = 0;
  for (const row of rows) {
    whereWidth = Math.max(whereWidth, row.where.length);
    whatWidth = Math.max(whatWidth, row.what.length);
  }
  const lines: string[] = [];
  if (report.job !== null) lines.push(escapeControl(`job ${report.job}:`));
  for (const row of rows)
    lines.push(
      `${row.where.padEnd(whereWidth)}  ${row.what.padEnd(whatWidth)}  ${row.verdict}${row.note === null ? '' : `  ${row.note}`}`,
    );
  lines.push(escapeControl(`${reportLabel(report)}: ${summaryLine(report)}`));
  if (report.leftOut.length > 0)
    lines.push(
      `${report.passed ? 'warning' : 'error'}: ${report.leftOut.length} call${report.leftOut.length === 1 ? ' was' : 's were'} not judged${report.passed ? ' (allowed by --allow-unjudged)' : ' (--allow-unjudged makes this a warning)'}`,
    );
  if (report.workflow !== undefined) {
    for (const advice of report.workflow.advice) lines.push(escapeControl(advice).replaceAll('\\x0a', '\n'));
    if (!report.workflow.defaulted && !report.workflow.composite)
      lines.push(`least block for the judged calls:\n${report.workflow.leastText}`);
  }
  return `${lines.join('\n')}\n`;
}
