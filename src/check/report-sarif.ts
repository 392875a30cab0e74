/** SARIF 2.1.0: one run; one result per call that is not allowed, at a path relative to the repository root. */
import { createHash } from 'node:crypto';
import { isAbsolute, relative, sep } from 'node:path';
import type { CheckReport, Verdict } from './check-calls.js';
import { reportLabel, summaryLine } from './report-summary.js';
import { callText } from './report-text.js';

const RULES: readonly { id: Verdict; text: string }[] = [
  { id: 'denied', text: 'The token cannot make this call.' },
  { id: 'never', text: 'No token of this kind can make this call.' },
  { id: 'uncertain', text: 'The tables cannot judge this call with certainty.' },
  { id: 'unresolved', text: 'The route of this call could not be read.' },
  { id: 'unjudged', text: 'This call was not judged (outside the table, GraphQL, or a token not given).' },
];

// `src/bot.ts` stays; an absolute path becomes relative to `root` (code scanning wants paths
// from the repository root, with forward slashes).
function uriOf(file: string, root: string): string {
  const path = isAbsolute(file) ? relative(root, file) : file;
  return path.split(sep).join('/').replaceAll('\\', '/').replace(/^\.\//, '');
}

/**
 * A SARIF 2.1.0 log with one run of the `tollgate` tool, whatever the number of jobs: each result
 * names its job, and carries a `partialFingerprints` entry that does not depend on its line, so
 * code scanning follows an alert across commits.
 * @example
 * import { sarifReport } from './report-sarif.js';
 * // JSON.parse(sarifReport([report], '0.2.0')).runs.length -> 1
 */
export function sarifReport(
  reports: CheckReport | readonly CheckReport[],
  version: string,
  root: string = process.cwd(),
): string {
  const list = Array.isArray(reports) ? (reports as readonly CheckReport[]) : [reports as CheckReport];
  const seen = new Map<string, number>();
  const results = list.flatMap((report) =>
    report.results
      .filter((result) => result.verdict !== 'allowed')
      .map((result) => {
        const { call, verdict, note } = result;
        const uri = uriOf(call.origin.file, root);
        const what = callText(result);
        // The same call twice in one file gets its occurrence number, not its line.
        const identity = [verdict, uri, report.job ?? '', what].join('\n');
        const occurrence = (seen.get(identity) ?? 0) + 1;
        seen.set(identity, occurrence);
        const failing =
          verdict === 'denied' ||
          verdict === 'never' ||
          (verdict === 'uncertain' && report.strict) ||
          ((verdict === 'unjudged' || verdict === 'unresolved') && !report.allowUnjudged);
        return {
          ruleId: verdict,
          level: failing ? 'error' : 'warning',
          message: { text: `${report.job === null ? '' : `job ${report.job}: `}${what}: ${note ?? verdict}` },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri, uriBaseId: '%SRCROOT%' },
                region: {
                  startLine: Math.max(1, call.origin.line),
                  startColumn: Math.max(1, call.origin.column),
                },
              },
            },
          ],
          partialFingerprints: {
            'tollgateCall/v1': createHash('sha256')
              .update(`${identity}\n${occurrence}`)
              .digest('hex')
              .slice(0, 32),
          },
          properties: { job: report.job, tokenKind: report.tokenKind },
        };
      }),
  );
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'tollgate',
            version,
            informationUri: 'https://www.npmjs.com/package/tollgate',
            rules: RULES.map((rule) => ({ id: rule.id, shortDescription: { text: rule.text } })),
          },
        },
        results,
        properties: {
          jobs: list.map((report) => ({
            job: report.job,
            tokenKind: report.tokenKind,
            summary: `${reportLabel(report)}: ${summaryLine(report)}`,
            grant: report.grant,
            unused: report.unused,
            leastBlock: report.workflow?.leastText ?? null,
          })),
        },
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
