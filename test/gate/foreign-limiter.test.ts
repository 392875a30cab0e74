// A limiter the gate is given that `createLimiter` did not make (a wrapper written against the
// object forms of admit and complete) is still called in those forms: every fact reaches it, the
// CPU a request spent included. A limiter createLimiter made is called in the positional forms.
import { describe, expect, it } from 'vitest';
import {
  type AdmitRequest,
  type CompleteFacts,
  createGate,
  createLimiter,
  type Limiter,
  type Token,
} from '../../src/index.js';
import type { LimitsStore, Ticket } from '../../src/limits.js';
import { bearerFacts } from '../support/bearer-facts.js';

const T0 = Date.UTC(2026, 0, 1);
const token: Token = {
  kind: 'fine-grained',
  permissions: { issues: 'write' },
  repositories: 'all',
  user: 'mona',
};
const facts = bearerFacts;

/** A logging wrapper, as a user would write it: object forms only, two arguments each. */
function wrapped(inner: Limiter<LimitsStore>) {
  const admits: unknown[] = [];
  const completes: unknown[] = [];
  const limiter = {
    ...inner,
    admit: (request: AdmitRequest) => {
      admits.push(request);
      return inner.admit(request);
    },
    complete: (ticket: Ticket, done: CompleteFacts) => {
      completes.push(done);
      return inner.complete(ticket, done);
    },
  } as unknown as Limiter<LimitsStore>;
  return { limiter, admits, completes };
}

describe('the gate and a limiter createLimiter did not make', () => {
  it('admits with the endpoint charge and completes with the status and CPU, in the object forms', async () => {
    const inner = createLimiter({ clock: () => T0 });
    const { limiter, admits, completes } = wrapped(inner);
    const gate = createGate({ limiter, lookupToken: () => token });
    expect(gate.limiter).toBe(limiter);
    const answer = await gate.check(facts('POST', '/repos/acme/app/issues'));
    expect(answer.action).toBe('pass');
    if (answer.action !== 'pass') return;
    await answer.settle?.finish(201, 7);
    expect(admits).toEqual([
      {
        identity: inner.identify(token),
        resource: 'core',
        cost: 5,
        content: true,
        countsPrimary: true,
        settle: undefined,
      },
    ]);
    expect(completes).toEqual([{ status: 201, cpuMs: 7 }]);
    // The CPU reached the store: the state is the one 7 ms leave, not the one 0 ms leave.
    const reference = (cpuMs: number) => {
      const direct = createLimiter({ clock: () => T0 });
      const identity = direct.identify(token);
      const { ticket } = direct.admit(identity, {
        resource: 'core',
        cost: 5,
        content: true,
        countsPrimary: true,
      });
      direct.complete(ticket!, 201, cpuMs);
      return direct.store.read(identity.key);
    };
    const state = inner.store.read(inner.identify(token).key);
    expect(state).toEqual(reference(7));
    expect(state).not.toEqual(reference(0));
  });

  it('settles a counted policy refusal through the object form, with its status', async () => {
    const { limiter, admits } = wrapped(createLimiter());
    const gate = createGate({
      limiter,
      lookupToken: () => ({ ...token, permissions: { metadata: 'read' } }),
    });
    const answer = await gate.check(facts('POST', '/repos/acme/app/issues'));
    expect(answer.action).toBe('respond');
    expect(admits).toHaveLength(1);
    expect((admits[0] as AdmitRequest).settle?.status).toBe(403);
  });

  it('calls a limiter createLimiter made as it is', async () => {
    const limiter = createLimiter();
    const gate = createGate({ limiter, lookupToken: () => token });
    expect(gate.limiter).toBe(limiter);
    const answer = await gate.check(facts('POST', '/repos/acme/app/issues'));
    expect(answer.action).toBe('pass');
    if (answer.action === 'pass') await answer.settle?.finish(201, 7);
    expect(limiter.store.read(limiter.identify(token).key)?.inFlight).toBe(0);
  });
});
