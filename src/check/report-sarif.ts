/** SARIF 2.1.0: one result per call that is not allowed, located at the call's file, line and column. */
import type { CheckReport, Verdict } from './check-calls.js';
import { summaryLine } from './report-summary.js';

const RULES: readonly { id: Verdict; text: string }[] = [
  { id: 'denied', text: 'The token cannot make this call.' },
  { id: 'never', text: 'No token of this kind can make this call.' },
  { id: 'uncertain', text: 'The tables cannot judge this call with certainty.' },
  { id: 'unresolved', text: 'The route of this call is not a literal.' },
];

/**
 * A SARIF 2.1.0 log with one run of the `tollgate` tool.
 * @example
 * import { sarifReport } from './report-sarif.js';
 * // JSON.parse(sarifReport(report, '0.1.0')).version -> '2.1.0'
 */
export function sarifReport(reports: CheckReport | readonly CheckReport[], version: string): string {
  const list = Array.isArray(reports) ? reports : [reports as CheckReport];
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    // One run per report (a workflow's jobs each have their own token).
    runs: list.map((report) => sarifRun(report, version)),
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

function sarifRun(report: CheckReport, version: string) {
  const results = report.results
    .filter((result) => result.verdict !== 'allowed')
    .map(({ call, verdict, note }) => ({
      ruleId: verdict,
      level: verdict === 'denied' || verdict === 'never' || report.strict ? 'error' : 'warning',
      message: {
        text: `${call.resolved ? `${call.method} ${call.path}` : (call.via ?? 'a call')}: ${note ?? verdict}`,
      },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: call.origin.file.replaceAll('\\', '/') },
            region: {
              startLine: Math.max(1, call.origin.line),
              startColumn: Math.max(1, call.origin.column),
            },
          },
        },
      ],
    }));
  return {
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
      tokenKind: report.tokenKind,
      summary: summaryLine(report),
      grant: report.grant,
      unused: report.unused,
    },
  };
}
