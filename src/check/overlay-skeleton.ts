/** `--write-overlay`: the skeleton of an overlay stating the endpoints the table lacks, to fill once. */

import { escapeControl } from '../core/escape-control.js';
import type { CheckReport } from './check-calls.js';

/**
 * A YAML overlay (schema-valid as written) with one entry per endpoint some call reached that the
 * table lacks, each with its fields to fill: `fine_grained` starts as `[]` (no alternative: every
 * token is refused until it is filled, so an unfilled skeleton never lets a call pass), `classic`
 * as `not_shown`; a comment lists where each endpoint is called. Null when nothing is missing.
 * @example
 * import { overlaySkeleton } from './overlay-skeleton.js';
 * // overlaySkeleton([report]) -> 'version: 1\nendpoints:\n  "GET /repos/{owner}/{repo}/pulls":\n    fine_grained: []  # fill: ...\n...'
 */
export function overlaySkeleton(reports: readonly CheckReport[]): string | null {
  const missing = new Map<string, string[]>();
  for (const report of reports)
    for (const { call, decision } of report.results) {
      if (decision?.reason !== 'unknown_endpoint') continue;
      const key = `${call.method} ${call.path.split('?')[0]}`;
      const places = missing.get(key) ?? [];
      places.push(`${call.origin.file}:${call.origin.line}:${call.origin.column}`);
      missing.set(key, places);
    }
  if (missing.size === 0) return null;
  const lines = [
    '# tollgate overlay skeleton: the endpoints your code calls that the tables lack.',
    '# Fill each entry from the service’s documentation, then: tollgate check ... --overlay THIS_FILE',
    '# `fine_grained`: alternatives (OR) of `permission: read|write` sets (AND), e.g. [{ pull_requests: read }],',
    '#   or `none` when no fine-grained permission reaches it; `[]` (as written) refuses every token.',
    '# `classic`: alternatives of scope sets, e.g. [[repo]]; `not_shown` keeps it uncertain.',
    'version: 1',
    'endpoints:',
  ];
  for (const [key, places] of [...missing].sort(([a], [b]) => (a < b ? -1 : 1))) {
    lines.push(
      `  # called at ${escapeControl(places.slice(0, 3).join(', '))}${places.length > 3 ? `, and ${places.length - 3} more` : ''}`,
    );
    lines.push(`  ${JSON.stringify(key)}:`);
    lines.push('    fine_grained: []  # fill');
    lines.push('    classic: not_shown  # fill');
    lines.push(`    source: ${JSON.stringify('fill: where these facts come from')}`);
  }
  return `${lines.join('\n')}\n`;
}
