/**
 * A plan for the callers of one identity, together: they share every ceiling, so their rates are
 * chosen at once. Callers with work get rates in proportion to their work (they finish together);
 * callers without work get an even share of each ceiling they use, a rate they can sustain.
 */
import type { CallerUse, Ceiling } from './plan-units.js';

/** One caller of the identity as the arithmetic sees it. */
export interface PlanMember {
  readonly use: CallerUse;
  /** Requests to complete, or null for a caller that runs until the scenario ends. */
  readonly work: number | null;
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
  const n = members.length;
  const free = members.filter((m) => m.work === null);
  const working = members.filter((m) => m.work !== null);
  const caps = ceilings.map((c) => c.limit / c.windowSeconds);
  // A ceiling the whole work fits under can never refuse it, at any pace: the members with work
  // are free of it when no member without work uses it.
  const exempt = ceilings.map(
    (c, k) =>
      free.every((m) => m.use.mean[k] === 0) && sum(working.map((m) => m.work! * m.use.most[k]!)) <= c.limit,
  );
  const shareWorkers = Math.max(1, Math.floor(concurrency / n));
  // Members without work: an even share of each ceiling they use, and of the requests in flight.
  const freeRate = (m: PlanMember): { rate: number; binding: Binding | null; unpaced: boolean } => {
    let rate = Number.POSITIVE_INFINITY;
    let binding: Binding | null = null;
    ceilings.forEach((c, k) => {
      const use = m.use.mean[k]!;
      if (use > 0 && caps[k]! / n / use < rate) {
        rate = caps[k]! / n / use;
        binding = { kind: 'ceiling', ceiling: c };
      }
    });
    // A poller waits X-Poll-Interval between polls: one worker at that pace, whatever the ceilings allow.
    if (m.use.maxRate < rate * (1 - CEILING_MARGIN) * scale)
      return { rate: m.use.maxRate, binding: { kind: 'poll', seconds: 1 / m.use.maxRate }, unpaced: false };
    const byWorkers = shareWorkers / m.use.latency;
    if (byWorkers < rate)
      return {
        rate: Math.max(1, Math.floor(shareWorkers * scale)) / m.use.latency,
        binding: { kind: 'concurrency', limit: concurrency },
        unpaced: true,
      };
    return { rate: rate * (1 - CEILING_MARGIN) * scale, binding, unpaced: false };
  };
  const freePlans = new Map(free.map((m) => [m, freeRate(m)]));
  const plans = new Map<PlanMember, MemberPlan>();
  for (const [m, p] of freePlans)
    plans.set(m, {
      rate: p.rate,
      workers: p.unpaced
        ? Math.max(1, Math.floor(shareWorkers * scale))
        : Math.max(1, Math.ceil(p.rate * m.use.paceLatency)),
      unpaced: p.unpaced,
    });
  let binding: Binding | null = free.length === n ? (freePlans.get(free[0]!)?.binding ?? null) : null;
  let finish: number | null = null;
  let fastest: number | null = null;
  if (working.length > 0) {
    // x: the share of its work each member does per second (all finish at 1 / x).
    let x = Number.POSITIVE_INFINITY;
    ceilings.forEach((c, k) => {
      if (exempt[k]) return;
      const need = sum(working.map((m) => m.work! * m.use.mean[k]!));
      if (need === 0) return;
      const avail = caps[k]! - sum(free.map((m) => plans.get(m)!.rate * m.use.mean[k]!));
      const bound = Math.max(0, avail) / need;
      if (bound < x) {
        x = bound;
        binding = { kind: 'ceiling', ceiling: c };
      }
    });
    for (const m of working)
      if (m.use.maxRate / m.work! < x) {
        x = m.use.maxRate / m.work!;
        binding = { kind: 'poll', seconds: 1 / m.use.maxRate };
      }
    const workersLeft = Math.max(working.length, concurrency - sum(free.map((m) => plans.get(m)!.workers)));
    // Little's law: in flight = rate × latency; no plan keeps more than `workersLeft` in flight.
    const byFlight = workersLeft / sum(working.map((m) => m.work! * m.use.latency));
    fastest = 1 / Math.min(x, byFlight);
    const paced = x * (1 - CEILING_MARGIN) * scale;
    const pacedWorkers = (m: PlanMember, rate: number) => Math.max(1, Math.ceil(rate * m.use.paceLatency));
    if (byFlight <= paced || sum(working.map((m) => pacedWorkers(m, m.work! * paced))) > workersLeft) {
      // Requests in flight bind: every worker sends as soon as its answer is back.
      const weights = working.map((m) => m.work! * m.use.latency);
      const total = sum(weights);
      working.forEach((m, i) => {
        // More workers than requests would idle: at most one per request.
        const workers = Math.max(
          1,
          Math.min(m.work!, Math.floor((workersLeft * scale * weights[i]!) / total)),
        );
        plans.set(m, { rate: workers / m.use.latency, workers, unpaced: true });
      });
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
      for (let guard = 0; guard < 400 && spills(at(y), free, plans, ceilings, exempt); guard++) y *= 0.995;
      for (const { m, plan } of at(y)) plans.set(m, plan);
      finish = 1 / y;
    }
  }
  return { members: members.map((m) => plans.get(m)!), binding, finish, fastest };
}

function spills(
  trial: readonly { m: PlanMember; plan: MemberPlan }[],
  free: readonly PlanMember[],
  plans: ReadonlyMap<PlanMember, MemberPlan>,
  ceilings: readonly Ceiling[],
  exempt: readonly boolean[],
): boolean {
  const all = [...trial, ...free.map((m) => ({ m, plan: plans.get(m)! }))];
  return ceilings.some(
    (c, k) =>
      !exempt[k] &&
      sum(
        all.map(({ m, plan }) => (plan.unpaced ? 0 : mostInWindow(plan, c.windowSeconds) * m.use.mean[k]!)),
      ) > c.limit,
  );
}
