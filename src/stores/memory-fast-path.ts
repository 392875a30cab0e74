/** The memory store's fused admission: the common allowed case, decided and charged in one function. */
// Hot path: one call per admission over a held row; bench/limits.mjs guards its speed.
// test/stores/memory-fast-path.prop.test.ts proves it answers and writes as stepInto does.
import { allowedVerdict } from '../limits/answers.js';
import { windowEnd } from '../limits/fixed-window.js';
import { AdmissionTicket, type AdmitEvent } from '../limits/limit-event.js';
import type { LimitsConfig } from '../limits/limits-config.js';
import { admitLogs, type LogPlan } from '../limits/log-rules.js';
import { resourceWindowMs } from '../limits/primary-limit.js';
import { chargeLog, logWaitMs, type SlidingLog } from '../limits/sliding-log.js';
import { SLOT } from '../limits/state-layout.js';
import { readyLogs, windowSlot } from '../limits/step-finish.js';
import type { Verdict } from '../limits/verdict.js';

/** Every log rule counted in a sliding log: the default window modes, the only plan fused. */
const ALL_SLIDING = 0b111111;

/** Off only in the property test that compares the fused path with the kernel. */
let enabled = true;

/**
 * Turns the fused admission on or off (on by default), for the test that proves it equals stepInto.
 * @example
 * import { useFastPath } from './memory-fast-path.js';
 * useFastPath(false); // every admission through stepInto
 * useFastPath(true);
 */
export function useFastPath(on: boolean): void {
  enabled = on;
}

/**
 * Whether an admission may take the fused path: enabled, every rule in a sliding log, the clock
 * not behind the row's time (`t >= at`: a step back restamps every log), not settled at once.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { logPlan } from '../limits/log-rules.js';
 * import { fastPathApplies } from './memory-fast-path.js';
 * fastPathApplies(logPlan(defaultLimits()), 2_000, 1_000, undefined); // true
 */
export function fastPathApplies(plan: LogPlan, t: number, at: number, settle: unknown): boolean {
  return enabled && plan.keptMask === ALL_SLIDING && t >= at && settle === undefined;
}

/**
 * stepInto's admission over a held row, in place, when every rule admits it: returns the same
 * verdict and writes the same row and logs as `stepInto(row, offset, event, now, config, row,
 * offset, hint, ticketId, logs)`, or returns null having written nothing (a refusal: the kernel
 * answers it, over the same logs; dropping the entries that left twice drops nothing more).
 * Only where `fastPathApplies`, with `t` the event's effective time.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { logPlan } from '../limits/log-rules.js';
 * import { createSlidingLog } from '../limits/sliding-log.js';
 * import { STATE_WIDTH } from '../limits/state-layout.js';
 * import { fusedAdmit } from './memory-fast-path.js';
 * const config = defaultLimits();
 * const row = new Float64Array(STATE_WIDTH);
 * const logs = Array.from({ length: 6 }, createSlidingLog);
 * const event = { kind: 'admit', key: 'user:octocat', resource: 'core', limit: 5000, cost: 1,
 *   content: false, graphql: false, countsPrimary: true } as const;
 * fusedAdmit(row, 0, event, 1_700_000_000_000, config, logPlan(config), 0, 1, logs)?.allowed; // true
 */
export function fusedAdmit(
  row: Float64Array,
  offset: number,
  e: AdmitEvent,
  t: number,
  config: LimitsConfig,
  plan: LogPlan,
  hint: number,
  ticketId: number,
  logs: readonly SlidingLog[],
): Verdict | null {
  const sec = config.secondary;
  const spans = plan.spans;
  const capacities = plan.capacities;
  const ws = offset + windowSlot(e.resource);
  const storedReset = row[ws]!;
  // currentReset and windowUsed, as stepInto computes them.
  const end = windowEnd(t, resourceWindowMs(e.resource, config));
  const open = storedReset > t && storedReset <= end;
  const reset = open ? storedReset : end;
  const used = open ? row[ws + 1]! : 0;
  const counted = e.countsPrimary;
  if (counted && used >= e.limit) return null;
  const inFlight = row[offset + SLOT.inFlight]!;
  if (inFlight >= sec.concurrency.limit) return null;
  const graphql = e.graphql;
  const content = e.content;
  readyLogs(logs, admitLogs(graphql, content, plan), t, plan);
  const p = graphql ? 1 : 0;
  if (logWaitMs(logs[p]!, t, spans[p]!, e.cost, capacities[p]!) > 0) return null;
  if (logWaitMs(logs[2]!, t, spans[2]!, 1, capacities[2]!) > 0) return null;
  if (graphql && logWaitMs(logs[3]!, t, spans[3]!, 1, capacities[3]!) > 0) return null;
  if (content) {
    if (logWaitMs(logs[4]!, t, spans[4]!, 1, sec.content.perMinute) > 0) return null;
    if (logWaitMs(logs[5]!, t, spans[5]!, 1, sec.content.perHour) > 0) return null;
  }
  // Admitted: every rule is charged (all or nothing), as stepInto writes it.
  row[offset + SLOT.at] = t;
  row[offset + SLOT.inFlight] = inFlight + 1;
  chargeLog(logs[p]!, t, e.cost, 1);
  row[offset + SLOT.restPoints] = 0;
  row[offset + SLOT.graphqlPoints] = 0;
  row[offset + SLOT.cpu] = 0;
  row[offset + SLOT.graphqlCpu] = 0;
  if (content) {
    chargeLog(logs[4]!, t, 1, 1);
    chargeLog(logs[5]!, t, 1, 1);
  }
  row[offset + SLOT.contentMinute] = 0;
  row[offset + SLOT.contentHour] = 0;
  const newUsed = counted ? used + 1 : used;
  if (counted) {
    row[ws] = reset;
    row[ws + 1] = newUsed;
  }
  const ticket = new AdmissionTicket(
    e.key,
    e.resource,
    graphql,
    e.limit,
    counted ? reset : 0,
    hint,
    ticketId,
  );
  return allowedVerdict(e.resource, e.limit, newUsed, reset, ticket, config);
}
