/** The HTML report: one self-contained page (no network, no script, no font) with SVG charts over time. */

import type { PlannerAdvice } from './planner-types.js';
import { bucketNote, duration, escapeHtml, number } from './report-format.js';
import { adviceSection } from './report-html-advice.js';
import { callerSection } from './report-html-caller.js';
import { RULE_NAMES } from './report-rule-names.js';
import type { SimulationReport } from './simulation-report.js';

const STYLE = `body{font:14px system-ui,sans-serif;margin:2em auto;max-width:800px;padding:0 1em;color:#111}
h2{margin-top:2em;border-top:1px solid #ddd;padding-top:1em}small{color:#555;font-weight:normal;font-size:70%}
figure{margin:1em 0}figcaption{font-weight:600;margin-bottom:2px}
table{border-collapse:collapse;margin:.5em 0}th,td{padding:2px 10px;border-bottom:1px solid #eee;text-align:left;white-space:nowrap;vertical-align:top}td.n{text-align:right}
.advice{background:#f4f0ff;border-left:4px solid #7c3aed;padding:.2em 1em;margin-top:1em}.advice h2{border:0;margin:.5em 0;padding:0}.advice li{margin:.4em 0}`;

function identitiesTable(report: SimulationReport): string {
  // One caller: its own section already says everything its identity did.
  if (report.callers.length < 2 || report.identities.length === 0) return '';
  const rows = report.identities.map((identity) => {
    const denied = Object.entries(identity.denied)
      .filter(([, n]) => (n ?? 0) > 0)
      .map(([rule, n]) => `${RULE_NAMES[rule as keyof typeof RULE_NAMES] ?? rule} ${number(n ?? 0)}`)
      .join(', ');
    return `<tr><td>${escapeHtml(identity.identity)}</td><td>${escapeHtml(identity.callers.join(', '))}</td><td class="n">${number(identity.admitted)}</td><td>${escapeHtml(denied === '' ? 'none' : denied)}</td></tr>`;
  });
  return `<h2>Identities</h2><p>Callers on one identity share its budgets.</p>
<table class="identities"><thead><tr><th>identity</th><th>callers</th><th>admitted</th><th>refused</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/**
 * The page: the run, the planner's advice when computed, the identities, then per caller its
 * figures, a row per rule (refused, time limited, first refusal) and its charts (traffic, every
 * rule's gauge against its limit line, markers for first refusal and work done) on one time axis.
 * Inline SVG only: it opens anywhere, offline.
 * @example
 * import { htmlReport } from './report-html.js';
 * // htmlReport(report, 'nightly sync').startsWith('<!doctype html>') -> true
 */
export function htmlReport(
  report: SimulationReport & { readonly recommendations?: readonly PlannerAdvice[] },
  title: string,
): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head><body><h1>${escapeHtml(title)}</h1>
<p>${duration(report.seconds)} of virtual time (${number(Math.round(report.seconds * 10) / 10)} s), seed ${report.seed}, ${number(report.requests)} requests simulated.</p>${bucketLine(report)}
${adviceSection(report.recommendations)}
${identitiesTable(report)}
${report.callers.map((caller) => callerSection(caller, report.seconds)).join('\n')}
</body></html>
`;
}

/** The bucket modes' warning as a paragraph, or nothing in the default modes. */
function bucketLine(report: SimulationReport): string {
  const note = bucketNote(report.bucketRules ?? []);
  return note === null ? '' : `\n<p class="note">${escapeHtml(note)}</p>`;
}
