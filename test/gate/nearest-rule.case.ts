// The IETF fields of admitted requests, figures computed by hand from seed 000's secondary limits
// (900 REST points a minute, a GET 1 point and a POST 5; 80 content requests a minute, 500 an
// hour; 100 in flight), run over any store: the memory store and a real Redis report the same.
import { expect, it } from 'vitest';
import { createGate, createLimiter, type Gate, type RequestFacts, type Token } from '../../src/index.js';
import { defaultLimits } from '../../src/limits/default-limits.js';
import type { LimitsConfig } from '../../src/limits/limits-config.js';
import type { LimitsStore } from '../../src/limits/limits-store.js';
import { withWindowModes } from '../../src/limits/with-window-modes.js';

/** A whole second, so the primary window ends exactly an hour later. */
const T = 1_700_000_000_000;
const EVENTS = '/repos/octo/app/issues/events';
const ISSUES = '/repos/octo/app/issues';
let users = 0;

function gateAt(store: LimitsStore, form: 'draft-7' | 'draft-8', config: LimitsConfig = defaultLimits()) {
  const token: Token = {
    kind: 'fine-grained',
    permissions: { issues: 'write' },
    repositories: 'all',
    user: `nearest${++users}-${Date.now()}`,
  };
  const time = { now: T };
  const clock = () => time.now;
  const gate = createGate({
    lookupToken: () => token,
    limiter: createLimiter({ store, config, clock }),
    clock,
    measureCpu: false,
    standardHeaders: form,
  });
  return { gate, time };
}

const facts = (target: string, method: string): RequestFacts => ({
  method,
  target,
  header: (name) => (name === 'authorization' ? 'Bearer s3cret' : undefined),
  remoteAddress: '203.0.113.7',
});

/** One request at the gate's time: its headers, its slot freed afterwards unless `hold`. */
async function send(gate: Gate, target: string, method = 'GET', hold = false) {
  const answer = await gate.check(facts(target, method));
  expect(answer.action).toBe('pass');
  if (answer.action === 'pass' && !hold) await answer.settle?.finish(200);
  return answer.headers;
}

/** `count` requests, one every `stepMs` from T, each slot freed; then the gate's clock at the next step. */
async function preload(
  gate: Gate,
  time: { now: number },
  count: number,
  stepMs: number,
  target: string,
  method: string,
) {
  for (let i = 0; i < count; i++) {
    time.now = T + i * stepMs;
    await send(gate, target, method);
  }
  time.now = T + count * stepMs;
}

/** The cases, over a fresh store from `newStore` each. */
export function nearestRuleContract(newStore: () => LimitsStore): void {
  it('reports the primary window of a fresh identity, in both forms: every rule whole when it arrived', async () => {
    // Arriving, core 5,000 of 5,000, points 900 of 900, in flight 100 of 100: a tie, the primary
    // window's. After it 4,999 remain; the window ends an hour after T, a whole second.
    const eight = gateAt(newStore(), 'draft-8');
    const headers = await send(eight.gate, EVENTS, 'GET', true);
    expect(headers['ratelimit-policy']).toBe('"core";q=5000;w=3600');
    expect(headers.ratelimit).toBe('"core";r=4999;t=3600');
    const seven = gateAt(newStore(), 'draft-7');
    const combined = await send(seven.gate, EVENTS, 'GET', true);
    expect(combined['ratelimit-policy']).toBe('5000;w=3600');
    expect(combined.ratelimit).toBe('limit=5000, remaining=4999, reset=3600');
  });

  it('reports rest_points after 880 GETs in a minute (sliding log), in both forms', async () => {
    // 880 GETs at T + 0, 50, ..., 43,950 ms; the 881st at T + 44,000 arrives with 900 - 880 = 20
    // points left (2.2 %) against core 4,120 of 5,000 (82.4 %). After it, 19 remain; all 881
    // points have left the minute when the newest does: 44,000 + 60,000 - 44,000 ms = 60 s.
    for (const [form, policy, field] of [
      ['draft-8', '"rest_points";q=900;w=60', '"rest_points";r=19;t=60'],
      ['draft-7', '900;w=60', 'limit=900, remaining=19, reset=60'],
    ] as const) {
      const { gate, time } = gateAt(newStore(), form);
      await preload(gate, time, 880, 50, EVENTS, 'GET');
      const headers = await send(gate, EVENTS, 'GET', true);
      expect(headers['ratelimit-policy']).toBe(policy);
      expect(headers.ratelimit).toBe(field);
      // The service's own headers still tell the primary window.
      expect(headers['x-ratelimit-remaining']).toBe('4119');
    }
  });

  it('reports content_per_minute near 80 content requests a minute (sliding log)', async () => {
    // 78 issues created at T + 0, 100, ..., 7,700 ms; the 79th at T + 7,800 arrives with content
    // 2 of 80 left (2.5 %), points 900 - 78 x 5 = 510 (56.7 %), content per hour 422 of 500. After
    // it, 1 remains, for 60 s.
    const { gate, time } = gateAt(newStore(), 'draft-8');
    await preload(gate, time, 78, 100, ISSUES, 'POST');
    const headers = await send(gate, ISSUES, 'POST', true);
    expect(headers['ratelimit-policy']).toBe('"content_per_minute";q=80;w=60');
    expect(headers.ratelimit).toBe('"content_per_minute";r=1;t=60');
  });

  it('reports content_per_minute from its bucket in bucket mode', async () => {
    // The bucket holds what was spent in request.ms, 60,000 a request, refilled 80 per ms: 100 ms
    // apart, after 79 requests 79 x 60,000 - 78 x 8,000 = 4,116,000 (68.6 requests). The 79th
    // arrived with 80 - 67.6 = 12.4 left (15.5 %, below points' 56.7 %); after it floor(11.4) = 11
    // remain, and the bucket is full again after 4,116,000 / 80 = 51,450 ms: 52 s.
    const config = withWindowModes(defaultLimits(), { content_per_minute: 'bucket' });
    const { gate, time } = gateAt(newStore(), 'draft-8', config);
    await preload(gate, time, 78, 100, ISSUES, 'POST');
    const headers = await send(gate, ISSUES, 'POST', true);
    expect(headers['ratelimit-policy']).toBe('"content_per_minute";q=80;w=60');
    expect(headers.ratelimit).toBe('"content_per_minute";r=11;t=52');
  });
}
