/** JUnit XML: one test case per call, failing when the call is not allowed. */
import type { CheckReport } from './check-calls.js';
import { reportLabel, summaryLine } from './report-summary.js';
import { callText } from './report-text.js';

const xml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/**
 * A `<testsuite>` per job with a `<testcase>` per call: denied, never-callable and unjudged calls
 * fail; uncertain ones are skipped (they fail under `--strict`), as are unjudged ones under
 * `--allow-unjudged`.
 * @example
 * import { junitReport } from './report-junit.js';
 * // junitReport(report).startsWith('<?xml') -> true
 */
export function junitReport(reports: CheckReport | readonly CheckReport[]): string {
  const list = Array.isArray(reports) ? reports : [reports as CheckReport];
  const suites = list.map(junitSuite);
  const tests = list.reduce((n, report) => n + report.results.length, 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="tollgate check" tests="${tests}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

function junitSuite(report: CheckReport): string {
  const failing = (verdict: string) =>
    verdict === 'denied' ||
    verdict === 'never' ||
    (report.strict && verdict === 'uncertain') ||
    (!report.allowUnjudged && (verdict === 'unresolved' || verdict === 'unjudged'));
  const cases = report.results.map((result) => {
    const { call, verdict, note } = result;
    const name = callText(result);
    const head = `  <testcase classname="${xml(call.origin.file)}" name="${xml(`${name} @ ${call.origin.line}:${call.origin.column}`)}" file="${xml(call.origin.file)}" line="${call.origin.line}">`;
    if (failing(verdict))
      return `${head}<failure type="${verdict}" message="${xml(note ?? verdict)}"/></testcase>`;
    if (verdict !== 'allowed') return `${head}<skipped message="${xml(note ?? verdict)}"/></testcase>`;
    return `${head}</testcase>`;
  });
  const failures = report.results.filter((result) => failing(result.verdict)).length;
  const skipped = report.results.filter((r) => r.verdict !== 'allowed' && !failing(r.verdict)).length;
  return [
    `<testsuite name="tollgate check (${xml(reportLabel(report))})" tests="${report.results.length}" failures="${failures}" skipped="${skipped}">`,
    `  <properties><property name="summary" value="${xml(summaryLine(report))}"/></properties>`,
    ...cases,
    '</testsuite>',
  ].join('\n');
}
