/** The simulator: callers against the very limiter and store the middleware runs, in virtual time. */
import { createLimiter } from '../limiter/create-limiter.js';
import { defaultLimits } from '../limits/default-limits.js';
import type { LimitRule, LimitsConfig } from '../limits/limits-config.js';
import { pollInterval } from '../limits/poll-interval.js';
import type { WindowedRule } from '../limits/windowed-rules.js';
import { withWindowModes } from '../limits/with-window-modes.js';
import { createPolicy } from '../policy/authorize.js';
import { shippedTables } from '../policy/shipped-tables.js';
import type { PolicyTables } from '../policy/tables.js';
import { createMemoryStore } from '../stores/memory-store.js';
import type { BehaviourRules } from './behaviour.js';
import { fixedRate } from './behaviour-fixed-rate.js';
import { greedy } from './behaviour-greedy.js';
import { octokit } from './behaviour-octokit.js';
import { polite } from './behaviour-polite.js';
import { callerRequests } from './caller-requests.js';
import type { CallerRun } from './caller-run.js';
import { runEngine } from './engine.js';
import { expandScenario } from './expand-scenario.js';
import { seededRandom } from './random.js';
import { emptyMemo, type IdentityTrack } from './refusal-memo.js';
import type { IdentityReport, RuleReport } from './report-types.js';
import { checkRequestCap } from './request-estimate.js';
import type { Behaviour, Scenario } from './scenario.js';
import { gaugesFor } from './series-gauges.js';
import { createSeriesRecorder, finishSeries, initialBucketMs } from './series-recorder.js';
import type { CallerReport, SimulateOptions, SimulationReport } from './simulation-report.js';

export type { CallerGrant, CallerReport, SimulateOptions, SimulationReport } from './simulation-report.js';

const DEFAULT_START = Date.UTC(2026, 0, 1);
const BEHAVIOUR_RULES: Readonly<Record<Behaviour, BehaviourRules>> = {
  polite,
  greedy,
  'fixed-rate': fixedRate,
  octokit,
};

/**
 * Runs `scenario` to its end (its duration, or every caller's work done: the run ends there) and
 * reports per caller, per rule and per identity. Deterministic: the same scenario and seed give
 * the same report. The limiter and the memory store are the production ones, on a virtual clock;
 * each request is decided by the policy as the gate decides it.
 * @example
 * import { simulate } from './simulate.js';
 * const report = simulate({
 *   seed: 1,
 *   durationSeconds: 3600,
 *   callers: [{ name: 'scraper', token: { kind: 'anonymous', ip: '198.51.100.7' }, behaviour: 'greedy', mix: [{ endpoint: 'GET /rate_limit', weight: 0 }, { endpoint: 'GET /repos/{owner}/{repo}/issues/events', weight: 1 }] }],
 * });
 * report.callers[0]?.admitted; // 60
 */
export function simulate(
  scenario: Scenario,
  tables: PolicyTables = shippedTables(),
  limits: LimitsConfig = defaultLimits(),
  options: SimulateOptions = {},
): SimulationReport {
  return simulateWith(scenario, tables, limits, options, true);
}

/**
 * `simulate`, choosing whether the engine reuses a refusal the store would repeat (`memo`, what
 * `simulate` does) or asks the store for every request: the reports are the same, which
 * test/sim/refusal-memo.prop.test.ts checks.
 * @example
 * import { simulateWith } from './simulate.js';
 * import { shippedTables } from 'tollgate';
 * import { defaultLimits } from 'tollgate/limits';
 * const scenario = { seed: 1, durationSeconds: 60, callers: [{ name: 'a', token: { kind: 'anonymous' as const, ip: '198.51.100.7' }, behaviour: 'greedy' as const, mix: [{ endpoint: 'GET /repos/{owner}/{repo}/issues/events', weight: 1 }] }] };
 * simulateWith(scenario, shippedTables(), defaultLimits(), {}, false).callers[0]?.admitted; // 60
 */
export function simulateWith(
  scenario: Scenario,
  tables: PolicyTables,
  limits: LimitsConfig,
  options: SimulateOptions,
  memo: boolean,
): SimulationReport {
  // sim-planner: pools and schedules become plain callers first; the engine never sees them.
  if (scenario.callers.some((c) => c.pool !== undefined || c.schedule !== undefined))
    return simulateWith(expandScenario(scenario).scenario, tables, limits, options, memo);
  checkRequestCap(scenario, options.requestCap);
  const start = scenario.start ?? DEFAULT_START;
  const end =
    scenario.durationSeconds === undefined
      ? Number.POSITIVE_INFINITY
      : start + scenario.durationSeconds * 1000;
  const clock = { now: start };
  const base = scenario.limits ?? limits;
  const config = scenario.windowModes === undefined ? base : withWindowModes(base, scenario.windowModes);
  const limiter = createLimiter({ clock: () => clock.now, store: createMemoryStore(), config });
  const root = seededRandom(scenario.seed);
  const bucketMs = initialBucketMs(end - start);
  const policy = createPolicy(tables);

  // Callers of one identity share its track: an admission by one changes what the others are answered.
  const tracks = new Map<string, IdentityTrack>();
  const runs: CallerRun[] = scenario.callers.map((spec) => {
    const identity = limiter.identify(spec.token);
    let track = tracks.get(identity.key);
    if (track === undefined) {
      track = { version: 0, held: 0 };
      tracks.set(identity.key, track);
    }
    const { requests, cumulative, grant } = callerRequests(spec, identity, policy);
    const workers = spec.workers ?? 1;
    const series = createSeriesRecorder(start, bucketMs);
    series.gauges.push(...gaugesFor(requests, identity, limiter.config));
    const primaryGauges: CallerRun['primaryGauges'] = {};
    for (const gauge of series.gauges)
      if (gauge.rule === 'primary') primaryGauges[gauge.resource ?? 'core'] = gauge;
    return {
      spec,
      identity,
      requests,
      cumulative,
      memos: requests.map(() => emptyMemo()),
      track,
      grant,
      intervalMs: spec.rate === undefined ? 0 : (workers * 1000) / spec.rate,
      random: seededRandom(Math.floor(root() * 2 ** 32)),
      series,
      primaryGauges,
      sent: 0,
      admitted: 0,
      completed: 0,
      abandoned: 0,
      policyDenied: 0,
      policyUnshown: 0,
      outstanding: 0,
      sentWhileLimited: 0,
      limitedUntil: start,
      limitedMs: 0,
      toldUntil: start,
      heldUntil: start,
      nextAt: { write: start, notification: start, search: start },
      inFlight: 0,
      pending: 0,
      waiting: [],
      workDoneAt: null,
      nextSampleAt: start,
      rules: {},
      lastRefusal: null,
    };
  });
  const behaviours = runs.map((run) => BEHAVIOUR_RULES[run.spec.behaviour]);
  const { requests, lastAt } = runEngine({
    runs,
    behaviours,
    limiter,
    clock,
    start,
    end,
    pollMs: pollInterval(0, config) * 1000,
    memo,
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  });

  // Work done ends the run: when every caller had work and did it, the run ends with the last.
  const allDone = runs.length > 0 && runs.every((run) => run.workDoneAt !== null);
  const endAt = allDone
    ? Math.max(...runs.map((run) => run.workDoneAt!))
    : Number.isFinite(end)
      ? end
      : lastAt;
  const seconds = (endAt - start) / 1000;
  const widest = Math.max(bucketMs, ...runs.map((run) => run.series.bucketMs));
  const buckets = Math.max(1, Math.ceil((endAt - start) / widest));
  const limitsSeen: Partial<Record<LimitRule, number>> = {};
  const callers = runs.map((run): CallerReport => {
    const at = (ms: number | null) => (ms === null ? null : (ms - start) / 1000);
    const denied: Partial<Record<LimitRule, number>> = {};
    const rules: Partial<Record<LimitRule, RuleReport>> = {};
    let firstRefusalAt: number | null = null;
    for (const [rule, tally] of Object.entries(run.rules) as [
      LimitRule,
      NonNullable<CallerRun['rules'][LimitRule]>,
    ][]) {
      denied[rule] = tally.denied;
      limitsSeen[rule] = (limitsSeen[rule] ?? 0) + tally.denied;
      rules[rule] = {
        denied: tally.denied,
        limitedSeconds: Math.min(tally.limitedMs, endAt - start) / 1000,
        firstRefusalAt: at(tally.firstRefusalAt),
      };
      if (tally.firstRefusalAt !== null && (firstRefusalAt === null || tally.firstRefusalAt < firstRefusalAt))
        firstRefusalAt = tally.firstRefusalAt;
    }
    return {
      name: run.spec.name,
      kind: run.spec.token.kind,
      behaviour: run.spec.behaviour,
      identity: run.identity.key,
      sent: run.sent,
      admitted: run.admitted,
      completed: run.completed,
      work: run.spec.work ?? null,
      denied,
      rules,
      firstRefusalAt: at(firstRefusalAt),
      abandoned: run.abandoned,
      policyDenied: run.policyDenied,
      policyUnshown: run.policyUnshown,
      sentWhileLimited: run.sentWhileLimited,
      limitedSeconds: Math.min(run.limitedMs, endAt - start) / 1000,
      workDoneAt: at(run.workDoneAt),
      series: finishSeries(run.series, widest, buckets),
      grant: run.grant,
    };
  });
  return {
    seed: scenario.seed,
    seconds,
    callers,
    identities: identitiesOf(callers),
    limits: limitsSeen,
    requests,
    bucketRules: (Object.keys(config.secondary.windowModes) as WindowedRule[]).filter(
      (rule) => config.secondary.windowModes[rule] === 'bucket',
    ),
  };
}

/** One summary per identity key, in the order callers first name them. */
function identitiesOf(callers: readonly CallerReport[]): IdentityReport[] {
  const byKey = new Map<
    string,
    { callers: string[]; admitted: number; denied: Partial<Record<LimitRule, number>> }
  >();
  for (const caller of callers) {
    let entry = byKey.get(caller.identity);
    if (entry === undefined) {
      entry = { callers: [], admitted: 0, denied: {} };
      byKey.set(caller.identity, entry);
    }
    entry.callers.push(caller.name);
    entry.admitted += caller.admitted;
    for (const [rule, n] of Object.entries(caller.denied) as [LimitRule, number][])
      entry.denied[rule] = (entry.denied[rule] ?? 0) + n;
  }
  return [...byKey].map(([identity, entry]) => ({ identity, ...entry }));
}
