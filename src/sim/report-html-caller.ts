/** One caller's part of the HTML report: its figures, a table per rule, and its charts on one time axis. */
import type { LimitRule } from '../limits/limits-config.js';
import { duration, escapeHtml, number, policyNote } from './report-format.js';
import { type TimeAxis, timeAxis } from './report-html-axis.js';
import { type ChartMarker, COLOURS, chartSvg } from './report-html-chart.js';
import { gaugeLimit, gaugeName, perWindow, RULE_NAMES } from './report-rule-names.js';
import type { Gauge } from './report-types.js';
import type { CallerReport } from './simulation-report.js';

/** A round y-axis top at or above `value`: 1, 2 or 5 times a power of ten (82 -> 100, 3 -> 5). */
function roundTop(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((each) => each * power).find((each) => each >= value)!;
}

/** A bucket's width in words: `minute`, `hour`, `15 min`. */
const bucketName = (seconds: number) =>
  seconds === 60 ? 'minute' : seconds === 3600 ? 'hour' : duration(seconds);

function workDone(caller: CallerReport): ChartMarker[] {
  return caller.workDoneAt === null
    ? []
    : [{ kind: 'work-done', at: caller.workDoneAt, label: `work done ${duration(caller.workDoneAt)}` }];
}

function gaugeChart(caller: CallerReport, gauge: Gauge, axis: TimeAxis): string {
  const refusal = caller.rules[gauge.rule]?.firstRefusalAt ?? null;
  const markers: ChartMarker[] = [
    ...(refusal === null
      ? []
      : [
          {
            kind: 'first-refusal',
            rule: gauge.rule,
            at: refusal,
            label: `first refused ${duration(refusal)}`,
          } as const,
        ]),
    ...workDone(caller),
  ];
  // Drawn as used (limit − remaining): the line meets the limit line when the rule binds.
  const used = gauge.remaining.map((left) => (left === null ? null : Math.max(0, gauge.limit - left)));
  const most = gauge.rule === 'concurrency' ? 'the most in flight' : 'the most used';
  const title = `${gaugeName(gauge)}: at most ${gaugeLimit(gauge)}; ${most} in each ${bucketName(caller.series.bucketSeconds)}`;
  return `<figure><figcaption>${escapeHtml(title)}</figcaption>${chartSvg({
    title,
    kind: 'gauge',
    rule: gauge.rule,
    ...(gauge.resource === undefined ? {} : { resource: gauge.resource }),
    axis,
    bucketSeconds: caller.series.bucketSeconds,
    lines: [{ name: 'used', colour: COLOURS.used, values: used }],
    top: gauge.limit,
    limit: { value: gauge.limit, label: `limit ${number(gauge.limit)}` },
    markers,
  })}</figure>`;
}

function trafficChart(caller: CallerReport, axis: TimeAxis): string {
  const markers: ChartMarker[] = [
    ...(caller.firstRefusalAt === null
      ? []
      : [
          {
            kind: 'first-refusal',
            at: caller.firstRefusalAt,
            label: `first refusal ${duration(caller.firstRefusalAt)}`,
          } as const,
        ]),
    ...workDone(caller),
  ];
  let top = 1;
  // Loops, not Math.max(...values): long series would overflow the call stack.
  for (const values of [caller.series.admitted, caller.series.denied])
    for (const value of values) if (value > top) top = value;
  const title = `requests admitted and refused ${perWindow(caller.series.bucketSeconds)}`;
  return `<figure><figcaption>${escapeHtml(title)}</figcaption>${chartSvg({
    title,
    kind: 'traffic',
    axis,
    bucketSeconds: caller.series.bucketSeconds,
    lines: [
      { name: 'admitted', colour: COLOURS.admitted, values: caller.series.admitted },
      { name: 'refused', colour: COLOURS.denied, values: caller.series.denied },
    ],
    top: roundTop(top),
    markers,
  })}</figure>`;
}

function inFlightChart(caller: CallerReport, axis: TimeAxis): string {
  let top = 1;
  for (const value of caller.series.inFlight) if (value > top) top = value;
  const title = 'requests in flight, most in each bucket';
  return `<figure><figcaption>${title}</figcaption>${chartSvg({
    title,
    kind: 'traffic',
    axis,
    bucketSeconds: caller.series.bucketSeconds,
    lines: [{ name: 'in flight', colour: COLOURS.used, values: caller.series.inFlight }],
    top: roundTop(top),
    markers: workDone(caller),
  })}</figure>`;
}

function ruleTable(caller: CallerReport): string {
  const rules = new Set<LimitRule>([
    ...caller.series.gauges.map((gauge) => gauge.rule),
    ...(Object.keys(caller.rules) as LimitRule[]),
  ]);
  const limits = new Map<LimitRule, string[]>();
  for (const gauge of caller.series.gauges)
    limits.set(gauge.rule, [
      ...(limits.get(gauge.rule) ?? []),
      gauge.resource === undefined ? gaugeLimit(gauge) : `${gaugeLimit(gauge)} (${gauge.resource})`,
    ]);
  const rows = [...rules].map((rule) => {
    const met = caller.rules[rule];
    const refused = met?.denied ?? 0;
    return `<tr data-rule="${rule}"><td>${escapeHtml(RULE_NAMES[rule])}</td><td>${(limits.get(rule) ?? []).map(escapeHtml).join('<br>')}</td><td class="n">${number(refused)}</td><td class="n">${refused === 0 ? '' : duration(met?.limitedSeconds ?? 0)}</td><td class="n">${met?.firstRefusalAt == null ? '' : duration(met.firstRefusalAt)}</td></tr>`;
  });
  return `<table><thead><tr><th>rule</th><th>limit</th><th>refused</th><th>time limited</th><th>first refusal</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function grantLine(caller: CallerReport): string {
  const held = [
    ...(caller.grant.scopes ?? []),
    ...Object.entries(caller.grant.permissions ?? {}).map(([slug, level]) => `${slug}=${level}`),
  ];
  const what = held.length === 0 ? 'no scope or permission' : held.join(', ');
  return caller.grant.source === 'derived'
    ? `token: ${escapeHtml(what)} (not stated: what its request mix needs)`
    : `token: ${escapeHtml(what)}`;
}

function figures(caller: CallerReport): string {
  const refused = Object.values(caller.denied).reduce((sum, n) => sum + (n ?? 0), 0);
  const parts = [
    `sent ${number(caller.sent)}`,
    `admitted ${number(caller.admitted)}`,
    caller.work === null
      ? `completed ${number(caller.completed)}`
      : `completed ${number(caller.completed)} of ${number(caller.work)}`,
    refused === 0
      ? (caller.policyDenied ?? 0) > 0
        ? 'no limit refused it'
        : 'never refused'
      : `refused ${number(refused)}, limited for ${duration(caller.limitedSeconds)}`,
  ];
  if (caller.sentWhileLimited > 0)
    parts.push(
      `<strong>${number(caller.sentWhileLimited)} sent while limited</strong> (the seed warns this can get an integration banned)`,
    );
  if ((caller.policyDenied ?? 0) > 0)
    parts.push(escapeHtml(policyNote(caller.policyDenied, caller.policyUnshown ?? 0)));
  if (caller.abandoned > 0) parts.push(`${number(caller.abandoned)} given up`);
  if (caller.work !== null)
    parts.push(
      caller.workDoneAt === null ? 'work not done by the end' : `work done at ${duration(caller.workDoneAt)}`,
    );
  return parts.join(', ');
}

/**
 * The caller's section. Every chart in it shares one time axis, `[0, seconds]`.
 * @example
 * import { callerSection } from './report-html-caller.js';
 * // callerSection(report.callers[0], report.seconds).startsWith('<section') -> true
 */
export function callerSection(caller: CallerReport, seconds: number): string {
  const axis = timeAxis(seconds);
  const gauges = caller.series.gauges;
  const charts = [
    trafficChart(caller, axis),
    ...(gauges.some((gauge) => gauge.rule === 'concurrency') ? [] : [inFlightChart(caller, axis)]),
    ...gauges.map((gauge) => gaugeChart(caller, gauge, axis)),
  ];
  return `<section class="caller" data-caller="${escapeHtml(caller.name)}"><h2>${escapeHtml(caller.name)} <small>${escapeHtml(caller.kind)}, ${escapeHtml(caller.behaviour)}, counted as ${escapeHtml(caller.identity)}</small></h2>
<p>${figures(caller)}.</p>
<p class="grant">${grantLine(caller)}</p>
${ruleTable(caller)}
${charts.join('\n')}
</section>`;
}
