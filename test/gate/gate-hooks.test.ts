// The gate's hooks without a server: what they cost when unset, their misuse, and the IETF fields
// of each rule a refusal can name.
import { describe, expect, it } from 'vitest';
import {
  createGate,
  createLimiter,
  createMemoryStore,
  type RequestFacts,
  type Token,
} from '../../src/index.js';
import { defaultLimits } from '../../src/limits/default-limits.js';

const token: Token = {
  kind: 'fine-grained',
  permissions: { issues: 'read' },
  repositories: 'all',
  user: 'mona',
};
const facts = (target = '/repos/octo/app/issues/events', method = 'GET'): RequestFacts => ({
  method,
  target,
  header: (name) => (name === 'authorization' ? 'Bearer s3cret' : undefined),
  remoteAddress: '203.0.113.7',
});
const inFlight = (gate: ReturnType<typeof createGate>) =>
  (gate.limiter.store.read(gate.limiter.identify(token).key) as { inFlight: number } | undefined)?.inFlight ??
  0;

describe('the gate’s hooks', () => {
  it('stays synchronous with a synchronous onDecision, and passes the same answer on when it returns nothing', () => {
    const answers: unknown[] = [];
    const gate = createGate({
      lookupToken: () => token,
      onDecision: (decision) => void answers.push(decision),
    });
    const answer = gate.check(facts());
    expect(answer).not.toBeInstanceOf(Promise);
    expect(answers).toEqual([(answer as { decision: unknown }).decision]);
  });

  it('refuses an onDecision that answers with a promise, and frees the slot of the request it admitted', () => {
    const gate = createGate({ lookupToken: () => token, onDecision: () => Promise.resolve({}) });
    expect(() => gate.check(facts())).toThrow(
      /`onDecision` must return nothing or a body object, synchronously/,
    );
    expect(inFlight(gate)).toBe(0);
  });

  it('never consults the limits for a CORS preflight or a skipped request, and does for an OPTIONS that is no preflight', () => {
    const gate = createGate({ lookupToken: () => token, skip: (f) => f.target === '/healthz' });
    const preflight: RequestFacts = {
      method: 'OPTIONS',
      target: '/repos/octo/app/issues',
      header: (name) => (name === 'access-control-request-method' ? 'POST' : undefined),
    };
    expect(gate.check(preflight)).toMatchObject({
      action: 'pass',
      decision: null,
      verdict: null,
      settle: null,
    });
    expect(gate.check(facts('/healthz'))).toMatchObject({ action: 'pass', settle: null });
    expect(gate.check(facts('/repos/octo/app/issues', 'OPTIONS'))).toMatchObject({
      action: 'respond',
      status: 404,
    });
    expect(gate.limiter.store.read(gate.limiter.identify(token).key)).toBeUndefined();
  });

  it('names the concurrency rule in the draft-8 fields, with its quota unit and no window', () => {
    const shipped = defaultLimits();
    const config = {
      ...shipped,
      secondary: { ...shipped.secondary, concurrency: { ...shipped.secondary.concurrency, limit: 1 } },
    };
    const gate = createGate({
      lookupToken: () => token,
      limiter: createLimiter({ store: createMemoryStore(), config }),
      standardHeaders: 'draft-8',
    });
    expect(gate.check(facts())).toMatchObject({ action: 'pass' });
    const refused = gate.check(facts()) as { status: number; headers: Record<string, string> };
    expect(refused.status).toBe(403);
    expect(refused.headers['ratelimit-policy']).toBe('"concurrency";q=1;qu="concurrent-requests"');
    expect(refused.headers.ratelimit).toBe('"concurrency";r=0;t=1');
  });

  it('tells onError of a store that fails to settle, instead of leaving an unhandled rejection', async () => {
    const told: unknown[] = [];
    const limiter = createLimiter();
    const failing = Object.assign(Object.create(limiter) as typeof limiter, {
      complete: () => Promise.reject(new Error('store gone')),
    });
    const gate = createGate({
      lookupToken: () => token,
      limiter: failing,
      onError: (error) => told.push(error),
    });
    const answer = gate.check(facts()) as { settle: { finish(status: number): Promise<void> } };
    await answer.settle.finish(200);
    expect(told).toEqual([new Error('store gone')]);
  });
});
