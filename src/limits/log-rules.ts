/** Which rules count in a sliding log under a config, and each log's span, quantum and capacity. */
import type { LimitEvent } from './limit-event.js';
import type { LimitsConfig, WindowMode } from './limits-config.js';

export { WINDOWED_RULES, type WindowedRule } from './windowed-rules.js';

/**
 * The six rules that may keep a log, in the order of their state slots (slot 2 + index): the
 * four windowed rules when `sliding`, and CPU time, which always counts in a log.
 * @example
 * import { LOG_RULES } from './log-rules.js';
 * LOG_RULES.indexOf('cpu'); // 2
 */
export const LOG_RULES = [
  'rest_points',
  'graphql_points',
  'cpu',
  'graphql_cpu',
  'content_per_minute',
  'content_per_hour',
] as const;

/**
 * CPU charges are stamped at the start of their second and counted for 61 s: never less than the
 * 60 s the seed states, at most 1 s more, and at most 62 entries per CPU log whatever the traffic.
 */
export const CPU_QUANTUM_MS = 1000;

/** Per log rule of a config: whether it keeps a log, for how long an entry counts, its quantum. */
export interface LogPlan {
  readonly uses: readonly boolean[];
  /** The indexes of `uses` that are true, for loops that touch only the logs kept. */
  readonly kept: readonly number[];
  /** `kept` as bits: bit `i` set when log rule `i` keeps a log. */
  readonly keptMask: number;
  readonly spans: readonly number[];
  readonly quanta: readonly number[];
  readonly capacities: readonly number[];
}

const plans = new WeakMap<LimitsConfig, LogPlan>();
// The last config asked about: a process runs one config almost always, and every event asks
// several times, so one comparison saves the WeakMap's hash lookups.
let lastConfig: LimitsConfig | undefined;
let lastPlan: LogPlan | undefined;

/**
 * The log plan of `config`, computed once per config.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { logPlan } from './log-rules.js';
 * logPlan(defaultLimits()).spans; // [60000, 60000, 61000, 61000, 60000, 3600000]
 */
export function logPlan(config: LimitsConfig): LogPlan {
  if (config === lastConfig) return lastPlan!;
  let plan = plans.get(config);
  if (plan !== undefined) {
    lastConfig = config;
    lastPlan = plan;
    return plan;
  }
  const sec = config.secondary;
  const modes = sec.windowModes;
  const sliding = (mode: WindowMode) => mode === 'sliding';
  const cpuSpan = sec.cpu.windowMs + CPU_QUANTUM_MS;
  const uses = [
    sliding(modes.rest_points),
    sliding(modes.graphql_points),
    true,
    true,
    sliding(modes.content_per_minute),
    sliding(modes.content_per_hour),
  ];
  plan = {
    uses,
    kept: uses.flatMap((kept, index) => (kept ? [index] : [])),
    keptMask: uses.reduce((mask, kept, index) => (kept ? mask | (1 << index) : mask), 0),
    spans: [sec.points.windowMs, sec.points.windowMs, cpuSpan, cpuSpan, 60_000, 3_600_000],
    quanta: [1, 1, CPU_QUANTUM_MS, CPU_QUANTUM_MS, 1, 1],
    capacities: [
      sec.points.rest,
      sec.points.graphql,
      sec.cpu.totalMs,
      sec.cpu.graphqlMs,
      sec.content.perMinute,
      sec.content.perHour,
    ],
  };
  plans.set(config, plan);
  lastConfig = config;
  lastPlan = plan;
  return plan;
}

/**
 * The logs an admission reads and charges, as bits (bit `i`: log rule `i`, LOG_RULES order), of
 * those `plan` keeps: its points log, the CPU logs it is checked against, the content logs when
 * it creates content. The kernel touches no other log, and a store loads and writes back only
 * these: a log nobody reads keeps its entries until it is read (each read drops what has left).
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { logPlan } from './log-rules.js';
 * import { admitLogs } from './log-rules.js';
 * admitLogs(false, false, logPlan(defaultLimits())); // 0b000101: rest_points and cpu
 */
export function admitLogs(graphql: boolean, content: boolean, plan: LogPlan): number {
  // 1: rest_points, 2: graphql_points, 4: cpu, 8: graphql_cpu, 48: both content rules.
  const mask = (graphql ? 2 | 4 | 8 : 1 | 4) | (content ? 16 | 32 : 0);
  return mask & plan.keptMask;
}

/**
 * The logs a completion or release charges, as bits (see admitLogs): the CPU logs.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { logPlan } from './log-rules.js';
 * import { finishLogs } from './log-rules.js';
 * finishLogs(true, logPlan(defaultLimits())); // 0b001100: cpu and graphql_cpu
 */
export function finishLogs(graphql: boolean, plan: LogPlan): number {
  return (graphql ? 4 | 8 : 4) & plan.keptMask;
}

/**
 * The logs `event` touches (see admitLogs, finishLogs); every log `plan` keeps when the clock
 * stepped back (`back`: the event's time is behind the identity's), since then each is restamped.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { logPlan } from './log-rules.js';
 * import { eventLogs } from './log-rules.js';
 * const event = { kind: 'admit', key: 'user:octocat', resource: 'core', limit: 5000, cost: 5,
 *   content: true, graphql: false, countsPrimary: true } as const;
 * eventLogs(event, false, logPlan(defaultLimits())); // 0b110101
 */
export function eventLogs(event: LimitEvent, back: boolean, plan: LogPlan): number {
  if (back) return plan.keptMask;
  return event.kind === 'admit'
    ? admitLogs(event.graphql, event.content, plan)
    : finishLogs(event.ticket.graphql, plan);
}
