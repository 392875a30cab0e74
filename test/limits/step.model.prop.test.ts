// Model-based runs: random event sequences over several identities, against the plain reference
// model of ./reference-model.ts. `step` (over a Map) and the memory store must agree with the model
// on every verdict. Runs: test/setup.ts (1,000 in CI); a failure prints the seed and the commands.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { effectiveTime } from '../../src/limits/effective-time.js';
import type { IdentityState } from '../../src/limits/identity-state.js';
import { EMPTY_IDENTITY_STATE } from '../../src/limits/identity-state.js';
import type { LimitEvent, Ticket } from '../../src/limits/limit-event.js';
import type { LimitsConfig, LimitsResource } from '../../src/limits/limits-config.js';
import { primaryLimits } from '../../src/limits/primary-limit.js';
import { packState, STATE_WIDTH } from '../../src/limits/state-layout.js';
import { step } from '../../src/limits/step.js';
import { unheldVerdict } from '../../src/limits/step-finish.js';
import { createTicketLedger } from '../../src/limits/ticket-ledger.js';
import type { Verdict } from '../../src/limits/verdict.js';
import { createMemoryStore } from '../../src/stores/memory-store.js';
import { ReferenceLimits, type RefTicket, type RefVerdict } from './reference-model.js';
import { config, T0, tinyConfig } from './support.js';

type Apply = (event: LimitEvent, now: number) => Verdict;

interface Model {
  now: number;
  ref: ReferenceLimits;
  tickets: RefTicket[];
}
interface Real {
  apply: Apply;
  tickets: Ticket[];
  cfg: LimitsConfig;
}

const CALLERS = [
  { key: 'user:a', caller: 'user' as const },
  { key: 'ip:b', caller: 'anonymous' as const },
  { key: 'installation:c', caller: 'installation' as const },
];
const RESOURCES: readonly LimitsResource[] = ['core', 'search', 'graphql', 'lfs'];

function summary(v: Verdict): RefVerdict {
  return {
    allowed: v.allowed,
    rule: v.rule,
    used: v.used,
    remaining: v.remaining,
    reset: v.reset,
    retryAt: v.retryAt,
  };
}

function checkAnswer(v: Verdict, cfg: LimitsConfig): void {
  // INVARIANT checks on every verdict: remaining never negative, used + remaining = limit.
  expect(v.remaining).toBeGreaterThanOrEqual(0);
  expect(v.used + v.remaining).toBe(v.limit);
  expect(v.headers[cfg.answers.headers.remaining]).toBe(String(v.remaining));
  if (!v.allowed) {
    expect(v.status).toBe(cfg.answers.status);
    // A primary refusal says retry-after only when a secondary rule frees up after the reset.
    if (v.rule === 'primary' && v.retryAt! <= v.reset * 1000)
      expect(v.headers['retry-after']).toBeUndefined();
    else if (v.rule === 'primary') expect(Number(v.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    else {
      expect(v.body?.message).toContain('secondary rate limit');
      expect(Number(v.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
  }
}

class AdmitCommand implements fc.Command<Model, Real> {
  constructor(
    readonly who: number,
    readonly resource: LimitsResource,
    readonly cost: number,
    readonly content: boolean,
    readonly graphql: boolean,
    readonly countsPrimary: boolean,
  ) {}
  check(): boolean {
    return true;
  }
  run(m: Model, r: Real): void {
    const c = CALLERS[this.who]!;
    const limit = primaryLimits({ caller: c.caller }, r.cfg)[this.resource];
    const a = {
      key: c.key,
      resource: this.resource,
      limit,
      cost: this.cost,
      content: this.content,
      graphql: this.graphql,
      countsPrimary: this.countsPrimary,
    };
    const expected = m.ref.admit(a, m.now);
    const actual = r.apply({ kind: 'admit', ...a }, m.now);
    expect(summary(actual)).toEqual(expected.verdict);
    checkAnswer(actual, r.cfg);
    if (expected.ticket) m.tickets.push(expected.ticket);
    if (actual.ticket) r.tickets.push(actual.ticket);
    // INVARIANT: at most `concurrency.limit` in flight per identity.
    expect(m.ref.inFlight(c.key)).toBeLessThanOrEqual(r.cfg.secondary.concurrency.limit);
  }
  toString(): string {
    return `admit(${CALLERS[this.who]!.key}, ${this.resource}, cost ${this.cost}${this.content ? ', content' : ''}${this.graphql ? ', graphql' : ''}${this.countsPrimary ? '' : ', /rate_limit'})`;
  }
}

class FinishCommand implements fc.Command<Model, Real> {
  constructor(
    readonly index: number,
    readonly status: 200 | 304 | 'release',
    readonly cpuMs: number,
  ) {}
  check(m: Model): boolean {
    return m.tickets.length > 0;
  }
  run(m: Model, r: Real): void {
    expect(r.tickets.length).toBe(m.tickets.length);
    const i = this.index % m.tickets.length;
    const [refTicket] = m.tickets.splice(i, 1);
    const [ticket] = r.tickets.splice(i, 1);
    const expected = m.ref.finish(refTicket!, this.status, this.cpuMs, m.now);
    const event: LimitEvent =
      this.status === 'release'
        ? { kind: 'release', ticket: ticket!, cpuMs: this.cpuMs }
        : { kind: 'complete', ticket: ticket!, status: this.status, cpuMs: this.cpuMs };
    const actual = r.apply(event, m.now);
    expect(summary(actual)).toEqual(expected);
    checkAnswer(actual, r.cfg);
  }
  toString(): string {
    return `${this.status === 'release' ? 'release' : `complete(${this.status})`}(#${this.index}, cpu ${this.cpuMs} ms)`;
  }
}

class AdvanceCommand implements fc.Command<Model, Real> {
  constructor(readonly ms: number) {}
  check(): boolean {
    return true;
  }
  run(m: Model): void {
    m.now += this.ms;
  }
  toString(): string {
    return `advance(${this.ms} ms)`;
  }
}

const admitCommand = fc
  .tuple(
    fc.nat(CALLERS.length - 1),
    fc.constantFrom(...RESOURCES),
    fc.nat(8),
    fc.boolean(),
    fc.boolean(),
    fc.oneof({ arbitrary: fc.constant(true), weight: 5 }, { arbitrary: fc.constant(false), weight: 1 }),
  )
  .map(
    ([who, resource, cost, content, graphql, counts]) =>
      new AdmitCommand(who, resource, cost, content, graphql, counts),
  );

// Admissions twice as likely as the other commands, so runs reach every limit.
const commands = [
  admitCommand,
  admitCommand,
  fc
    .tuple(
      fc.nat(50),
      fc.constantFrom<200 | 304 | 'release'>(200, 304, 'release'),
      fc.oneof(fc.constant(0), fc.nat(2500)),
    )
    .map(([i, status, cpu]) => new FinishCommand(i, status, cpu)),
  fc
    .oneof(fc.nat(50), fc.nat(2_000), fc.nat(20_000), fc.constant(600_000), fc.nat(4_000_000))
    .map((ms) => new AdvanceCommand(ms)),
];

/** A store written plainly over `step` and a ticket ledger, as a custom store would be. */
function pureStep(cfg: LimitsConfig): Apply {
  const states = new Map<string, IdentityState>();
  const ledger = createTicketLedger();
  return (event, now) => {
    const key = event.kind === 'admit' ? event.key : event.ticket.key;
    const state = states.get(key) ?? EMPTY_IDENTITY_STATE;
    const t = effectiveTime(now, state.at);
    if (event.kind !== 'admit') {
      const row = new Float64Array(STATE_WIDTH);
      packState(state, row, 0);
      if (!ledger.claim(key, event.ticket.id, t)) return unheldVerdict(row, 0, event.ticket, now, cfg);
      const result = step(state, event, now, cfg);
      states.set(key, result.state);
      return result.verdict;
    }
    const id = ledger.nextId();
    const result = step({ ...state, inFlight: ledger.live(key, t) }, event, now, cfg, id);
    if (result.verdict.allowed) {
      ledger.hold(key, id, t + cfg.secondary.concurrency.leaseMs);
      states.set(key, result.state);
    }
    return result.verdict;
  };
}

function memoryStore(cfg: LimitsConfig): Apply {
  const store = createMemoryStore({ maxIdentities: 10 });
  return (event, now) => store.apply(event, now, cfg);
}

describe.each([
  ['tiny numbers', tinyConfig],
  ['shipped numbers', config],
])('limits agree with the reference model (%s)', (_name, cfg) => {
  it.each([
    ['step over a Map', pureStep],
    ['the memory store', memoryStore],
  ])('%s gives the model verdict for every event', (_impl, make) => {
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 150, size: 'max' }), (cmds) => {
        const setup = () => ({
          model: { now: T0, ref: new ReferenceLimits(cfg), tickets: [] } as Model,
          real: { apply: make(cfg), tickets: [], cfg } as Real,
        });
        fc.modelRun(setup, cmds);
      }),
    );
  });
});
