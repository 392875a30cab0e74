// A small reference model of tollgate's limits, written plainly and separately from src/limits:
// windows as {end, count}; a windowed rule in `sliding` mode (the default) as the plain list of
// every charge, counted while it is inside (now - W, now]; in `bucket` mode as an "available"
// amount refilled lazily; CPU as the list of its charges, each stamped at the start of its second
// and counted for W + 1 s; in-flight as the set of tickets held, each with its own lease. The model-based tests run it beside `step` and the memory store; they must agree on
// every verdict. Amounts are kept in point·ms (points x window ms) so both sides stay exact.
import type { LimitRule, LimitsConfig, LimitsResource } from '../../src/limits/limits-config.js';

export interface RefVerdict {
  allowed: boolean;
  rule: LimitRule | null;
  used: number;
  remaining: number;
  /** Epoch seconds. */
  reset: number;
  retryAt: number | null;
}

export interface RefTicket {
  key: string;
  resource: LimitsResource;
  graphql: boolean;
  limit: number;
  windowEnd: number;
  /** The model's own ticket number: a handle on one held slot. */
  no: number;
}

class RefBucket {
  available: number;
  at = 0;
  constructor(
    readonly capacity: number,
    readonly windowMs: number,
  ) {
    this.available = capacity * windowMs;
  }
  refill(now: number): void {
    this.available = Math.min(
      this.capacity * this.windowMs,
      this.available + this.capacity * (now - this.at),
    );
    this.at = now;
  }
}

/** Every charge of a rule, as it was made: the sliding log written the plainest way. */
class RefLog {
  charges: { at: number; weight: number }[] = [];
  constructor(
    readonly capacity: number,
    readonly spanMs: number,
    readonly quantumMs = 1,
  ) {}
  live(now: number) {
    return this.charges.filter((c) => c.at > now - this.spanMs);
  }
  count(now: number): number {
    return this.live(now).reduce((sum, c) => sum + c.weight, 0);
  }
  /** When `need` more fits (now when it fits): the oldest charges leave one span after them. */
  freeAt(now: number, need: number): number {
    let count = this.count(now);
    if (count + need <= this.capacity) return now;
    const live = this.live(now);
    for (const c of live) {
      count -= c.weight;
      if (count + need <= this.capacity) return c.at + this.spanMs;
    }
    return (live.at(-1)?.at ?? now) + this.spanMs;
  }
  charge(now: number, weight: number): void {
    if (weight > 0) this.charges.push({ at: now - (now % this.quantumMs), weight });
  }
}

class RefIdentity {
  windows = new Map<LimitsResource, { end: number; count: number }>();
  /** Ticket number -> end of its lease. */
  held = new Map<number, number>();
  rest: RefBucket;
  graphql: RefBucket;
  cpu: RefBucket;
  graphqlCpu: RefBucket;
  minute: RefBucket;
  hour: RefBucket;
  restLog: RefLog;
  graphqlLog: RefLog;
  minuteLog: RefLog;
  hourLog: RefLog;
  cpuLog: RefLog;
  graphqlCpuLog: RefLog;
  constructor(c: LimitsConfig) {
    const s = c.secondary;
    this.restLog = new RefLog(s.points.rest, s.points.windowMs);
    this.graphqlLog = new RefLog(s.points.graphql, s.points.windowMs);
    this.minuteLog = new RefLog(s.content.perMinute, 60_000);
    this.hourLog = new RefLog(s.content.perHour, 3_600_000);
    this.cpuLog = new RefLog(s.cpu.totalMs, s.cpu.windowMs + 1000, 1000);
    this.graphqlCpuLog = new RefLog(s.cpu.graphqlMs, s.cpu.windowMs + 1000, 1000);
    this.rest = new RefBucket(s.points.rest, s.points.windowMs);
    this.graphql = new RefBucket(s.points.graphql, s.points.windowMs);
    this.cpu = new RefBucket(s.cpu.totalMs, s.cpu.windowMs);
    this.graphqlCpu = new RefBucket(s.cpu.graphqlMs, s.cpu.windowMs);
    this.minute = new RefBucket(s.content.perMinute, 60_000);
    this.hour = new RefBucket(s.content.perHour, 3_600_000);
  }
  buckets(): RefBucket[] {
    return [this.rest, this.graphql, this.cpu, this.graphqlCpu, this.minute, this.hour];
  }
}

export interface RefAdmit {
  key: string;
  resource: LimitsResource;
  limit: number;
  cost: number;
  content: boolean;
  graphql: boolean;
  countsPrimary: boolean;
}

/** The reference model: all identities of one run. */
export class ReferenceLimits {
  private readonly ids = new Map<string, RefIdentity>();
  private tickets = 0;
  constructor(private readonly c: LimitsConfig) {}

  private identity(key: string): RefIdentity {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = new RefIdentity(this.c);
      this.ids.set(key, id);
    }
    return id;
  }

  private windowMs(resource: LimitsResource): number {
    return resource === 'core' ? this.c.primary.windowMs : this.c.primary.resources[resource].windowMs;
  }

  /** The window of `resource` as it stands at `now` (not stored). */
  private window(id: RefIdentity, resource: LimitsResource, now: number) {
    const w = id.windows.get(resource);
    if (w !== undefined && w.end > now) return { end: w.end, count: w.count, open: true };
    return { end: Math.ceil((now + this.windowMs(resource)) / 1000) * 1000, count: 0, open: false };
  }

  admit(a: RefAdmit, now: number): { verdict: RefVerdict; ticket: RefTicket | null } {
    const id = this.identity(a.key);
    const w = this.window(id, a.resource, now);
    const verdict = (
      allowed: boolean,
      rule: LimitRule | null,
      used: number,
      retryAt: number | null,
    ): RefVerdict => ({
      allowed,
      rule,
      used,
      remaining: rule === 'primary' ? 0 : Math.max(0, a.limit - used),
      reset: w.end / 1000,
      retryAt,
    });
    const primaryDenied = a.countsPrimary && w.count >= a.limit;
    for (const b of id.buckets()) b.refill(now);
    for (const [no, leaseEnd] of id.held) if (leaseEnd <= now) id.held.delete(no);
    const inFlight = id.held.size;
    const denials: [LimitRule, number][] = [];
    if (inFlight >= this.c.secondary.concurrency.limit) denials.push(['concurrency', now + 1000]);
    const modes = this.c.secondary.windowModes;
    const points = a.graphql ? id.graphql : id.rest;
    const pointsRule = a.graphql ? 'graphql_points' : 'rest_points';
    const pointsLog = a.graphql ? id.graphqlLog : id.restLog;
    if (modes[pointsRule] === 'sliding') {
      const at = pointsLog.freeAt(now, a.cost);
      if (at > now) denials.push([pointsRule, at]);
    } else if (points.available < a.cost * points.windowMs) {
      const wait = Math.ceil((a.cost * points.windowMs - points.available) / points.capacity);
      denials.push([pointsRule, now + wait]);
    }
    // CPU: admitted while the CPU counted is below the ceiling (whole ms: 1 more fits).
    const cpuAt = id.cpuLog.freeAt(now, 1);
    if (cpuAt > now) denials.push(['cpu', cpuAt]);
    const gqlCpuAt = id.graphqlCpuLog.freeAt(now, 1);
    if (a.graphql && gqlCpuAt > now) denials.push(['graphql_cpu', gqlCpuAt]);
    if (a.content) {
      for (const [bucket, log, rule] of [
        [id.minute, id.minuteLog, 'content_per_minute'],
        [id.hour, id.hourLog, 'content_per_hour'],
      ] as const) {
        if (modes[rule] === 'sliding') {
          const at = log.freeAt(now, 1);
          if (at > now) denials.push([rule, at]);
        } else if (bucket.available < bucket.windowMs) {
          denials.push([rule, now + Math.ceil((bucket.windowMs - bucket.available) / bucket.capacity)]);
        }
      }
    }
    if (primaryDenied) {
      const retryAt = Math.max(w.end, ...denials.map(([, at]) => at));
      return { verdict: verdict(false, 'primary', w.count, retryAt), ticket: null };
    }
    if (denials.length > 0) {
      const retryAt = Math.max(...denials.map(([, at]) => at));
      return { verdict: verdict(false, denials[0]![0], w.count, retryAt), ticket: null };
    }
    const no = ++this.tickets;
    id.held.set(no, now + this.c.secondary.concurrency.leaseMs);
    if (modes[pointsRule] === 'sliding') pointsLog.charge(now, a.cost);
    else points.available -= a.cost * points.windowMs;
    if (a.content) {
      if (modes.content_per_minute === 'sliding') id.minuteLog.charge(now, 1);
      else id.minute.available -= id.minute.windowMs;
      if (modes.content_per_hour === 'sliding') id.hourLog.charge(now, 1);
      else id.hour.available -= id.hour.windowMs;
    }
    let used = w.count;
    if (a.countsPrimary) {
      used += 1;
      id.windows.set(a.resource, { end: w.end, count: used });
    }
    const ticket = {
      key: a.key,
      resource: a.resource,
      graphql: a.graphql,
      limit: a.limit,
      windowEnd: a.countsPrimary ? w.end : 0,
      no,
    };
    return { verdict: verdict(true, null, used, null), ticket };
  }

  finish(ticket: RefTicket, status: number | 'release', cpuMs: number, now: number): RefVerdict {
    const id = this.identity(ticket.key);
    const leaseEnd = id.held.get(ticket.no);
    // A ticket not held (settled already, a copy, its lease over) changes nothing.
    if (leaseEnd === undefined || leaseEnd <= now) return this.answer(id, ticket, now);
    id.held.delete(ticket.no);
    for (const b of id.buckets()) b.refill(now);
    // One request charges at most the rule's capacity, in whole ms.
    const cpu = this.c.secondary.cpu;
    const ms = cpuMs > 0 ? Math.ceil(cpuMs) : 0;
    id.cpuLog.charge(now, Math.min(ms, cpu.totalMs));
    if (ticket.graphql) id.graphqlCpuLog.charge(now, Math.min(ms, cpu.graphqlMs));
    const stored = id.windows.get(ticket.resource);
    if (
      status === 304 &&
      stored !== undefined &&
      ticket.windowEnd !== 0 &&
      stored.end === ticket.windowEnd &&
      stored.count > 0
    ) {
      stored.count -= 1;
    }
    return this.answer(id, ticket, now);
  }

  private answer(id: RefIdentity, ticket: RefTicket, now: number): RefVerdict {
    const w = this.window(id, ticket.resource, now);
    return {
      allowed: true,
      rule: null,
      used: w.count,
      remaining: Math.max(0, ticket.limit - w.count),
      reset: w.end / 1000,
      retryAt: null,
    };
  }

  inFlight(key: string): number {
    return this.ids.get(key)?.held.size ?? 0;
  }
}
