// The limiter against an adversarial clock (NaN, Infinity, negative, jumps back and forth by up
// to a day) and adversarial ticket handling (copies, double completion, completion after the
// window reset, release after complete). After every command: no state holds a non-finite
// number; every retry-after and x-ratelimit-reset is a finite integer; the in-flight count equals
// the tickets actually held. A lone client that waits what a denial told it is not refused by that
// rule again, and an
// identity is admitted again one longest window after the clock behaves.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Limiter as LimiterOf, Verdict } from '../../src/index.js';
import { createLimiter } from '../../src/index.js';
import { CLOCK_SKEW_TOLERANCE_MS } from '../../src/limits/effective-time.js';
import type { IdentityState } from '../../src/limits/identity-state.js';
import type { Ticket } from '../../src/limits/limit-event.js';
import type { SyncLimitsStore } from '../../src/limits/limits-store.js';
import { T0, tinyConfig } from '../limits/support.js';

const DAY = 86_400_000;
/** The longest window of tinyConfig: content per hour. */
const LONGEST_WINDOW = 3_600_000;

type Limiter = LimiterOf<SyncLimitsStore>;

interface Model {
  /** What the clock reads now; may be anything. */
  reading: number;
  /** The last sane reading, where the clock goes back to when it behaves. */
  sane: number;
}
interface Real {
  limiter: Limiter;
  identity: ReturnType<Limiter['identify']>;
  setClock(reading: number): void;
  /** Tickets handed out, with the lease end the store holds them to; `settled` once completed or released. */
  tickets: { ticket: Ticket; leaseEnd: number; settled: boolean }[];
}

function checkVerdict(v: Verdict): void {
  const h = tinyConfig.answers.headers;
  expect(v.headers[h.reset]).toMatch(/^\d+$/);
  if (!v.allowed && v.rule !== 'primary') expect(v.headers[h.retryAfter]).toMatch(/^[1-9]\d*$/);
  expect(Number.isFinite(v.reset)).toBe(true);
}

function checkState(r: Real): void {
  const state = r.limiter.store.read(r.identity.key) as IdentityState | undefined;
  if (state === undefined) return;
  const { logs, ...numbers } = state;
  for (const [field, value] of Object.entries(numbers)) expect(Number.isFinite(value), field).toBe(true);
  // INVARIANT: no log entry is stamped after the identity's time (a stamp from the future would
  // count longer than one window from now).
  for (const log of logs ?? [])
    for (let i = 0; i < log.length; i += 2) {
      expect(Number.isSafeInteger(log[i]) && Number.isSafeInteger(log[i + 1])).toBe(true);
      expect(log[i]!).toBeLessThanOrEqual(state.at);
    }
}

/** The time the store counts at now (see effectiveTime): the state's `at` after any event. */
function storeTime(r: Real): number {
  return (r.limiter.store.read(r.identity.key) as IdentityState | undefined)?.at ?? 0;
}

/** Tickets whose lease ended by the store's time are gone for good (the store dropped them). */
function expirePassedLeases(r: Real): void {
  const t = storeTime(r);
  for (const x of r.tickets) if (x.leaseEnd <= t) x.settled = true;
}

class ClockCommand implements fc.Command<Model, Real> {
  constructor(
    readonly to: 'nan' | 'inf' | '-inf' | 'negative' | 'jump',
    readonly ms: number,
  ) {}
  check = () => true;
  run(m: Model, r: Real): void {
    const reading =
      this.to === 'nan'
        ? Number.NaN
        : this.to === 'inf'
          ? Number.POSITIVE_INFINITY
          : this.to === 'negative'
            ? -Math.abs(this.ms)
            : this.to === '-inf'
              ? Number.NEGATIVE_INFINITY
              : m.sane + this.ms;
    m.reading = reading;
    if (this.to === 'jump' && reading > 0) m.sane = reading;
    r.setClock(reading);
  }
  toString = () => `clock(${this.to}${this.to === 'jump' || this.to === 'negative' ? ` ${this.ms}` : ''})`;
}

class AdvanceCommand implements fc.Command<Model, Real> {
  constructor(readonly ms: number) {}
  check = () => true;
  run(m: Model, r: Real): void {
    m.sane += this.ms;
    m.reading = m.sane;
    r.setClock(m.reading);
  }
  toString = () => `advance(${this.ms})`;
}

class AdmitCommand implements fc.Command<Model, Real> {
  constructor(
    readonly method: 'GET' | 'POST',
    readonly content: boolean,
  ) {}
  check = () => true;
  run(m: Model, r: Real): void {
    const request = { identity: r.identity, method: this.method, content: this.content };
    const v = r.limiter.admit(request);
    checkVerdict(v);
    checkState(r);
    if (v.ticket) {
      r.tickets.push({
        ticket: v.ticket,
        leaseEnd: storeTime(r) + tinyConfig.secondary.concurrency.leaseMs,
        settled: false,
      });
      // INVARIANT: in flight = tickets held: handed out, not settled, lease running at the store's
      // time. An expired lease is gone for good, even if the clock steps back later.
      expirePassedLeases(r);
      const held = r.tickets.filter((x) => !x.settled).length;
      expect((r.limiter.store.read(r.identity.key) as IdentityState).inFlight).toBe(held);
      return;
    }
    // A lone client that waits what it was told is admitted: only when the clock behaves now, and
    // not for the concurrency rule (its slots free when requests finish, not with time).
    const sane = Number.isFinite(m.reading) && m.reading >= storeTime(r) - CLOCK_SKEW_TOLERANCE_MS;
    if (!sane || v.rule === 'concurrency') return;
    // Rule 1 (until the reset) and rule 2 (retry-after); when both are given, the longer (rule 5).
    const untilReset = Number(v.headers[tinyConfig.answers.headers.reset]) * 1000 - Math.floor(m.reading);
    const retryAfter = v.headers[tinyConfig.answers.headers.retryAfter];
    const waitMs =
      v.rule === 'primary'
        ? Math.max(untilReset, retryAfter === undefined ? 0 : Number(retryAfter) * 1000)
        : Number(retryAfter) * 1000;
    m.sane = Math.floor(m.reading) + Math.max(0, waitMs);
    m.reading = m.sane;
    r.setClock(m.reading);
    const again = r.limiter.admit(request);
    expirePassedLeases(r);
    checkVerdict(again);
    expect(
      again.rule === null || again.rule === 'concurrency',
      `after waiting for ${v.rule}: ${again.rule}`,
    ).toBe(true);
    if (again.ticket)
      r.tickets.push({
        ticket: again.ticket,
        leaseEnd: storeTime(r) + tinyConfig.secondary.concurrency.leaseMs,
        settled: false,
      });
  }
  toString = () => `admit(${this.method}${this.content ? ', content' : ''})`;
}

class SettleCommand implements fc.Command<Model, Real> {
  constructor(
    readonly index: number,
    readonly how: 'complete' | 'complete-304' | 'release' | 'copy-304' | 'again',
    readonly cpuMs: number,
  ) {}
  check = (_m: Readonly<Model>) => true;
  run(_m: Model, r: Real): void {
    if (r.tickets.length === 0) return;
    const entry = r.tickets[this.index % r.tickets.length]!;
    const ticket = this.how === 'copy-304' ? JSON.parse(JSON.stringify(entry.ticket)) : entry.ticket;
    const v =
      this.how === 'release'
        ? r.limiter.release(ticket, this.cpuMs)
        : r.limiter.complete(ticket, { status: this.how.endsWith('304') ? 304 : 200, cpuMs: this.cpuMs });
    checkVerdict(v);
    checkState(r);
    // The ticket object settles its slot; a copy of it is not the handle and settles nothing.
    if (this.how !== 'copy-304') entry.settled = true;
  }
  toString = () => `${this.how}(#${this.index}, cpu ${this.cpuMs})`;
}

class BehaveCommand implements fc.Command<Model, Real> {
  check = () => true;
  run(m: Model, r: Real): void {
    // The clock behaves again (at the last sane reading, or the store's time if that is later),
    // then one longest window passes: the identity is admitted whatever happened before.
    m.sane = Math.max(m.sane, storeTime(r)) + LONGEST_WINDOW + CLOCK_SKEW_TOLERANCE_MS;
    m.reading = m.sane;
    r.setClock(m.reading);
    const v = r.limiter.admit({ identity: r.identity, method: 'GET' });
    expirePassedLeases(r);
    checkVerdict(v);
    expect(v.allowed, `still refused by ${v.rule}`).toBe(true);
    r.tickets.push({
      ticket: v.ticket!,
      leaseEnd: storeTime(r) + tinyConfig.secondary.concurrency.leaseMs,
      settled: false,
    });
  }
  toString = () => 'behave-for-the-longest-window';
}

const commands = [
  fc
    .tuple(fc.constantFrom<'GET' | 'POST'>('GET', 'POST'), fc.boolean())
    .map(([m, c]) => new AdmitCommand(m, c)),
  fc
    .tuple(fc.constantFrom<'GET' | 'POST'>('GET', 'POST'), fc.boolean())
    .map(([m, c]) => new AdmitCommand(m, c)),
  fc
    .tuple(
      fc.nat(30),
      fc.constantFrom('complete', 'complete-304', 'release', 'copy-304', 'again') as fc.Arbitrary<
        SettleCommand['how']
      >,
      fc.oneof(fc.constant(0), fc.nat(5_000)),
    )
    .map(([i, how, cpu]) => new SettleCommand(i, how, cpu)),
  fc
    .tuple(
      fc.constantFrom('nan', 'inf', '-inf', 'negative', 'jump') as fc.Arbitrary<ClockCommand['to']>,
      fc.integer({ min: -DAY, max: DAY }),
    )
    .map(([to, ms]) => new ClockCommand(to, ms)),
  fc.oneof(fc.nat(50), fc.nat(10_000), fc.nat(400_000)).map((ms) => new AdvanceCommand(ms)),
  fc.constant(new BehaveCommand()),
];

describe('the limiter under an adversarial clock and adversarial ticket handling', () => {
  it('keeps every number finite, in-flight equal to tickets held, and waiting enough', () => {
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 120 }), (cmds) => {
        const setup = () => {
          let reading = T0;
          const limiter = createLimiter({ clock: () => reading, config: tinyConfig });
          const real: Real = {
            limiter,
            identity: limiter.identify({ kind: 'classic', user: 'octocat' }),
            setClock: (value) => {
              reading = value;
            },
            tickets: [],
          };
          return { model: { reading: T0, sane: T0 } as Model, real };
        };
        fc.modelRun(setup, cmds);
      }),
    );
  });
});
