/** The human report of a simulation: a line per caller, a row per rule that refused it, the identities. */
import type { LimitRule } from '../limits/limits-config.js';
import type { Recommendation } from './recommend.js';
import { bucketNote, duration, number, policyNote } from './report-format.js';
import { RULE_NAMES } from './report-rule-names.js';
import type { CallerReport, SimulationReport } from './simulation-report.js';

/** A time as a person reads it, and in seconds as the planner's lines and the JSON give it. */
const at = (seconds: number) =>
  seconds < 60 ? duration(seconds) : `${duration(seconds)} (${number(Math.round(seconds))} s)`;

const refusedIn = (denied: Readonly<Partial<Record<LimitRule, number>>>) =>
  Object.values(denied).reduce((sum, n) => sum + (n ?? 0), 0);

function callerLine(caller: CallerReport): string {
  const refused = refusedIn(caller.denied);
  const parts = [
    `sent ${number(caller.sent)}`,
    `admitted ${number(caller.admitted)}`,
    caller.work === null
      ? `completed ${number(caller.completed)}`
      : `completed ${number(caller.completed)} of ${number(caller.work)}`,
    refused > 0
      ? `refused ${number(refused)}`
      : (caller.policyDenied ?? 0) > 0
        ? 'no limit refused it'
        : 'never refused',
  ];
  const notes = [
    ...(caller.sentWhileLimited > 0
      ? [
          `${number(caller.sentWhileLimited)} sent while limited (the seed warns this can get an integration banned)`,
        ]
      : []),
    ...((caller.policyDenied ?? 0) > 0 ? [policyNote(caller.policyDenied, caller.policyUnshown ?? 0)] : []),
    ...(caller.abandoned > 0 ? [`${number(caller.abandoned)} given up`] : []),
    ...(caller.work === null
      ? []
      : [caller.workDoneAt === null ? 'work not done by the end' : `work done at ${at(caller.workDoneAt)}`]),
  ];
  return `${caller.name}  ${caller.kind}, ${caller.behaviour}, ${caller.identity}  ${parts.join(', ')}${notes.map((note) => `; ${note}`).join('')}`;
}

/** A row per rule that refused the caller: refused, time limited, first refusal; none when never refused. */
function ruleRows(caller: CallerReport): string[] {
  // In the order they first refused: the first row is the rule that binds first.
  const rules = (Object.keys(caller.rules) as LimitRule[])
    .filter((rule) => (caller.rules[rule]?.denied ?? 0) > 0)
    .sort(
      (a, b) =>
        (caller.rules[a]!.firstRefusalAt ?? Number.POSITIVE_INFINITY) -
        (caller.rules[b]!.firstRefusalAt ?? Number.POSITIVE_INFINITY),
    );
  if (rules.length === 0) return [];
  const rows = [
    ['rule', 'refused', 'time limited', 'first refusal'],
    ...rules.map((rule) => {
      const met = caller.rules[rule]!;
      return [
        RULE_NAMES[rule],
        number(met.denied),
        duration(met.limitedSeconds),
        met.firstRefusalAt === null ? '' : duration(met.firstRefusalAt),
      ];
    }),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) =>
    `  ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[0]!) : cell.padStart(widths[column]!))).join('  ')}`.trimEnd(),
  );
}

function grantLine(caller: CallerReport): string[] {
  if (caller.grant.source !== 'derived') return [];
  const held = [
    ...(caller.grant.scopes ?? []),
    ...Object.entries(caller.grant.permissions ?? {}).map(([slug, level]) => `${slug}=${level}`),
  ];
  return [
    `  token not stated: given what its mix needs (${held.length === 0 ? 'nothing' : held.join(', ')})`,
  ];
}

function identityLines(report: SimulationReport): string[] {
  // One caller: its own line already says everything its identity did.
  if (report.callers.length < 2 || report.identities.length === 0) return [];
  return [
    'identities (callers on one identity share its budgets)',
    ...report.identities.map((identity) => {
      const refused = (Object.entries(identity.denied) as [LimitRule, number][])
        .filter(([, n]) => n > 0)
        .map(([rule, n]) => `${RULE_NAMES[rule]} ${number(n)}`);
      return `  ${identity.identity}  ${identity.callers.join(', ')}  admitted ${number(identity.admitted)}, ${refused.length === 0 ? 'never refused' : `refused: ${refused.join(', ')}`}`;
    }),
  ];
}

/**
 * One line per caller, a row per rule that refused it (refused, time limited, first refusal), the
 * identities when several callers ran, and a recommendation where one was computed.
 * @example
 * import { textReport } from './report-text.js';
 * // textReport(report, []) -> 'simulated 3,600 s (seed 4), 2,400,000 requests\ngreedy  classic, greedy, user:greedy  sent 2,400,000, ...'
 */
export function textReport(
  report: SimulationReport,
  recommendations: readonly (Recommendation | null | undefined)[],
): string {
  const lines = [
    `simulated ${number(Math.round(report.seconds * 10) / 10)} s (seed ${report.seed}), ${number(report.requests)} requests`,
  ];
  const buckets = bucketNote(report.bucketRules ?? []);
  if (buckets !== null) lines.push(buckets);
  report.callers.forEach((caller, i) => {
    lines.push(callerLine(caller), ...ruleRows(caller), ...grantLine(caller));
    const advice = recommendations[i];
    if (advice !== undefined && advice !== null)
      lines.push(
        `  recommendation: at most ${advice.rate} requests/s with ${advice.workers} worker${advice.workers === 1 ? '' : 's'}: no limited request` +
          `${advice.workDoneAt === null ? '' : `, work done at ${number(advice.workDoneAt)} s`}`,
      );
  });
  lines.push(...identityLines(report));
  return `${lines.join('\n')}\n`;
}
