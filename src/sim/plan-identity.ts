/**
 * A plan for the callers of one identity, together: they share every ceiling, so their rates are
 * chosen at once. Callers with work get rates in proportion to their work (they finish together);
 * callers without work get an even share of each ceiling they use, a rate they can sustain.
 * Callers whose intervals (a schedule's runs) stay more than a window apart do not share that
 * window's ceiling.
 */
import type { LimitsConfig } from '../limits/limits-config.js';
import { pollInterval } from '../limits/poll-interval.js';
import type { PolicyTables } from '../policy/tables.js';
import { type CallerUse, type Ceiling, callerUse } from './plan-units.js';
import type { CallerSpec } from './scenario.js';

/** One caller of the identity as the arithmetic sees it. */
export interface PlanMember {
  readonly use: CallerUse;
  /** Requests to complete, or null for a caller that runs until the scenario ends. */
  readonly work: number | null;
  /** Its interval in the run (a schedule's run), seconds; `to` is Infinity when it lasts to the end. */
  readonly from: number;
  readonly to: number;
}

/**
 * A caller as a member of its identity's plan: its use of each ceiling, its work, its interval.
 * @example
 * // planMember(spec, ceilings, tables, config) -> { use: { mean: [...], ... }, work: 200, from: 0, to: Infinity }
 */
export function planMember(
  spec: CallerSpec,
  ceilings: readonly Ceiling[],
  tables: PolicyTables,
  config: LimitsConfig,
): PlanMember {
  return {
    use: callerUse(spec, ceilings, tables, config, pollInterval(0, config)),
    work: spec.work ?? null,
    from: spec.startSeconds ?? 0,
    to: spec.stopSeconds ?? Number.POSITIVE_INFINITY,
  };
}

/** The arithmetic plan of one member. */
export interface MemberPlan {
  readonly rate: number;
  readonly workers: number;
  /** Sends as fast as answers come (the plan is bound by requests in flight, not by a rate). */
  readonly unpaced: boolean;
}

/** What bounds a group plan: a ceiling, the identity's requests in flight, or a poller's interval. */
export type Binding =
  | { readonly kind: 'ceiling'; readonly ceiling: Ceiling }
  | { readonly kind: 'concurrency'; readonly limit: number }
  | { readonly kind: 'poll'; readonly seconds: number };

/** A group plan: per member, the binding, and finish times for the members with work. */
export interface GroupPlan {
  readonly members: readonly MemberPlan[];
  readonly binding: Binding | null;
  /** When the members with work finish under the plan, by the arithmetic; null without work. */
  readonly finish: number | null;
  /** The least finish any steady refusal-free plan can reach (no margin, no pacing loss). */
  readonly fastest: number | null;
}

/** Below each ceiling by this share: an evenly paced caller at exactly the ceiling sits on its boundary. */
export const CEILING_MARGIN = 0.01;

/**
 * Standard deviations of room for chance: a run of many windows sees its largest fill, and a
 * sliding window over hours meets four deviations now and then (three left refusals in check runs).
 */
const CHANCE_DEVIATIONS = 4;

/**
 * The share below a ceiling that leaves room for chance: a mix drawn at random puts more than
 * its mean in a window now and then. With `count` requests of units' `variance` in a window
 * whose mean fill is `limit`, CHANCE_DEVIATIONS standard deviations, plus CEILING_MARGIN.
 * Worked example: content 500 an hour, one request in five creating (variance 0.16), 2,500
 * requests an hour: sqrt(2,500 × 0.16) = 20, four of them 80, 16% of 500: margin 0.17.
 */
export function chanceMargin(count: number, variance: number, limit: number): number {
  return Math.min(
    0.5,
    CEILING_MARGIN + (CHANCE_DEVIATIONS * Math.sqrt(Math.max(0, count * variance))) / limit,
  );
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/**
 * Counts a paced member can put in one window of `seconds`: each of its `workers` starts a
 * request every `workers / rate` seconds, all in step (they start together), so a window holds
 * at most `workers × ceil(seconds × rate / workers)` of them.
 */
function mostInWindow(plan: MemberPlan, seconds: number): number {
  if (plan.rate === 0) return 0;
  return plan.workers * Math.ceil((seconds * plan.rate) / plan.workers - 1e-9);
}

/**
 * Plans `members` (the callers of one identity) under `ceilings` and `concurrency` requests in
 * flight, with rates scaled by `scale` (below 1 when a check run found a refusal).
 * @example
 * // one caller creating 200 issues: content 80 a minute binds; 80 / 60 × 0.99 = 1.32 a second
 * // planGroup([{ use, work: 200 }], ceilings, 100).members[0].rate -> 1.32
 */
export function planGroup(
  members: readonly PlanMember[],
  ceilings: readonly Ceiling[],
  concurrency: number,
  scale = 1,
): GroupPlan {
  const free = members.filter((m) => m.work === null);
  const working = members.filter((m) => m.work !== null);
  const caps = ceilings.map((c) => c.limit / c.windowSeconds);
  // Members share a ceiling when their intervals come within one window of each other: the runs
  // of a schedule an hour apart do not share a minute's points, but do share the hour's content.
  const peers = (m: PlanMember, window: number) =>
    members.filter((o) => o.from < m.to + window && m.from < o.to + window);
  const freePeers = (m: PlanMember, window: number) => peers(m, window).filter((o) => o.work === null);
  const workingPeers = (m: PlanMember, window: number) => peers(m, window).filter((o) => o.work !== null);
  // A ceiling the whole work fits under can never refuse it, at any pace: members with work are
  // free of it when no member without work near them uses it.
  const exempt = ceilings.map((c, k) =>
    members.every(
      (m) =>
        freePeers(m, c.windowSeconds).every((o) => o.use.mean[k] === 0) &&
        sum(workingPeers(m, c.windowSeconds).map((o) => o.work! * o.use.most[k]!)) <= c.limit,
    ),
  );
  const shareWorkers = (m: PlanMember) => Math.max(1, Math.floor(concurrency / peers(m, 0).length));
  // Members without work: an even share of each ceiling they use, and of the requests in flight.
  const freeRate = (m: PlanMember): { rate: number; binding: Binding | null; unpaced: boolean } => {
    let rate = Number.POSITIVE_INFINITY;
    let binding: Binding | null = null;
    let safe = Number.POSITIVE_INFINITY;
    ceilings.forEach((c, k) => {
      const use = m.use.mean[k]!;
      const share = caps[k]! / peers(m, c.windowSeconds).length / use;
      if (use > 0 && share < rate) {
        rate = share;
        binding = { kind: 'ceiling', ceiling: c };
      }
      if (use > 0) {
        const margin = chanceMargin(
          share * c.windowSeconds,
          m.use.variance[k]!,
          share * use * c.windowSeconds,
        );
        safe = Math.min(safe, share * (1 - margin));
      }
    });
    // A poller waits X-Poll-Interval between polls: one worker at that pace, whatever the ceilings allow.
    if (m.use.maxRate < safe * scale)
      return { rate: m.use.maxRate, binding: { kind: 'poll', seconds: 1 / m.use.maxRate }, unpaced: false };
    if (shareWorkers(m) / m.use.latency < rate)
      return {
        rate: Math.max(1, Math.floor(shareWorkers(m) * scale)) / m.use.latency,
        binding: { kind: 'concurrency', limit: concurrency },
        unpaced: true,
      };
    return { rate: safe * scale, binding, unpaced: false };
  };
  const freePlans = new Map(free.map((m) => [m, freeRate(m)]));
  const plans = new Map<PlanMember, MemberPlan>();
  for (const [m, p] of freePlans)
    plans.set(m, {
      rate: p.rate,
      workers: p.unpaced
        ? Math.max(1, Math.floor(shareWorkers(m) * scale))
        : Math.max(1, Math.ceil(p.rate * m.use.paceLatency)),
      unpaced: p.unpaced,
    });
  let binding: Binding | null = working.length === 0 ? (freePlans.get(free[0]!)?.binding ?? null) : null;
  let finish: number | null = null;
  let fastest: number | null = null;
  if (working.length > 0) {
    // x: the share of its work each member does per second (each finishes 1 / x after its start).
    let x = Number.POSITIVE_INFINITY;
    let safe = Number.POSITIVE_INFINITY;
    ceilings.forEach((c, k) => {
      if (exempt[k]) return;
      for (const m of working) {
        const near = workingPeers(m, c.windowSeconds);
        const need = sum(near.map((o) => o.work! * o.use.mean[k]!));
        if (need === 0) continue;
        const taken = sum(freePeers(m, c.windowSeconds).map((o) => plans.get(o)!.rate * o.use.mean[k]!));
        const room = Math.max(0, caps[k]! - taken);
        const bound = room / need;
        if (bound < x) {
          x = bound;
          binding = { kind: 'ceiling', ceiling: c };
        }
        // At that pace a window holds bound × W × Σ work requests, each of its variance.
        const count = bound * c.windowSeconds * sum(near.map((o) => o.work!));
        const variance = sum(near.map((o) => o.work! * o.use.variance[k]!)) / sum(near.map((o) => o.work!));
        safe = Math.min(safe, bound * (1 - chanceMargin(count, variance, room * c.windowSeconds)));
      }
    });
    for (const m of working)
      if (m.use.maxRate / m.work! < x) {
        x = m.use.maxRate / m.work!;
        binding = { kind: 'poll', seconds: 1 / m.use.maxRate };
      }
    // Requests in flight a member's working peers may use: what its free peers leave.
    const workersLeft = (m: PlanMember) =>
      Math.max(
        workingPeers(m, 0).length,
        concurrency - sum(freePeers(m, 0).map((o) => plans.get(o)!.workers)),
      );
    const flightLoad = (m: PlanMember) => sum(workingPeers(m, 0).map((o) => o.work! * o.use.latency));
    // Little's law: in flight = rate × latency; no plan keeps more than `workersLeft` in flight.
    const byFlight = Math.min(...working.map((m) => workersLeft(m) / flightLoad(m)));
    fastest = 1 / Math.min(x, byFlight);
    const paced = Math.min(safe, x * (1 - CEILING_MARGIN)) * scale;
    const pacedWorkers = (m: PlanMember, rate: number) => Math.max(1, Math.ceil(rate * m.use.paceLatency));
    const crowded = working.some(
      (m) => sum(workingPeers(m, 0).map((o) => pacedWorkers(o, o.work! * paced))) > workersLeft(m),
    );
    if (byFlight <= paced || crowded) {
      // Requests in flight bind: every worker sends as soon as its answer is back.
      for (const m of working) {
        const share = (m.work! * m.use.latency) / flightLoad(m);
        // More workers than requests would idle: at most one per request.
        const workers = Math.max(1, Math.min(m.work!, Math.floor(workersLeft(m) * scale * share)));
        plans.set(m, { rate: workers / m.use.latency, workers, unpaced: true });
      }
      if (byFlight <= paced) binding = { kind: 'concurrency', limit: concurrency };
      finish = Math.max(...working.map((m) => m.work! / plans.get(m)!.rate));
    } else {
      let y = paced;
      const at = (share: number) =>
        working.map((m) => ({
          m,
          plan: { rate: m.work! * share, workers: pacedWorkers(m, m.work! * share), unpaced: false },
        }));
      // Workers in step put up to `workers` more in a window than the rate alone: step down until none spills.
      for (let guard = 0; guard < 400 && spills(at(y), plans, ceilings, exempt, peers); guard++) y *= 0.995;
      for (const { m, plan } of at(y)) plans.set(m, plan);
      finish = 1 / y;
    }
  }
  return { members: members.map((m) => plans.get(m)!), binding, finish, fastest };
}

function spills(
  trial: readonly { m: PlanMember; plan: MemberPlan }[],
  plans: ReadonlyMap<PlanMember, MemberPlan>,
  ceilings: readonly Ceiling[],
  exempt: readonly boolean[],
  peers: (m: PlanMember, window: number) => PlanMember[],
): boolean {
  const tried = new Map([...plans, ...trial.map(({ m, plan }) => [m, plan] as const)]);
  return ceilings.some(
    (c, k) =>
      !exempt[k] &&
      trial.some(
        ({ m }) =>
          sum(
            peers(m, c.windowSeconds).map((o) => {
              const plan = tried.get(o)!;
              return plan.unpaced ? 0 : mostInWindow(plan, c.windowSeconds) * o.use.mean[k]!;
            }),
          ) > c.limit,
      ),
  );
}
