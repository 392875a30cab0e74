// The JSON a user sees of a verdict and of its ticket, byte for byte: how the objects are laid out
// inside (own fields, prototype data, getters) may change for speed, their JSON may not. A ticket's
// JSON is also how it travels to another server to be settled there.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../src/limiter/create-limiter.js';
import { AdmissionTicket, type AdmitEvent } from '../../src/limits/limit-event.js';
import { step } from '../../src/limits/step.js';
import { createMemoryStore } from '../../src/stores/memory-store.js';
import { config } from './support.js';

/** 2026-01-01T12:00:00.250Z: not a whole second, so the core window ends at ...401 s. */
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0, 250);
const CORE_END = 1_767_272_401_000;

const HEADERS_4999 =
  '"headers":{"x-ratelimit-limit":"5000","x-ratelimit-remaining":"4999","x-ratelimit-used":"1",' +
  '"x-ratelimit-reset":"1767272401","x-ratelimit-resource":"core"}';

function searchEvent(overrides: Partial<AdmitEvent> = {}): AdmitEvent {
  return {
    kind: 'admit',
    key: 'user:a',
    resource: 'search',
    limit: 30,
    cost: 1,
    content: false,
    graphql: false,
    countsPrimary: true,
    ...overrides,
  };
}

describe('the JSON of verdicts and tickets', () => {
  it('of an admission: every field in one order, the ticket inside, the headers last', () => {
    const limiter = createLimiter({ store: createMemoryStore(), clock: () => T0 });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    const verdict = limiter.admit({ identity, method: 'POST', content: true });
    expect(verdict.ticket?.countedReset).toBe(CORE_END);
    expect(JSON.stringify(verdict)).toBe(
      '{"allowed":true,"reason":"allowed","rule":null,"resource":"core","limit":5000,"used":1,' +
        '"retryAt":null,"retryAfter":null,"status":null,"body":null,' +
        `"ticket":{"key":"user:octocat","resource":"core","graphql":false,"limit":5000,"countedReset":${CORE_END},"hint":-1,"id":1},` +
        `"remaining":4999,"reset":1767272401,${HEADERS_4999}}`,
    );
  });

  it('of a completion (a 304, refunded) and of a ticket that did not count', () => {
    let now = T0;
    const limiter = createLimiter({ store: createMemoryStore(), clock: () => now });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    const ticket = limiter.admit({ identity }).ticket!;
    now += 1234;
    expect(JSON.stringify(limiter.complete(ticket, { status: 304, cpuMs: 7 }))).toBe(
      '{"allowed":true,"reason":"allowed","rule":null,"resource":"core","limit":5000,"used":0,' +
        '"retryAt":null,"retryAfter":null,"status":null,"body":null,"ticket":null,"remaining":5000,' +
        '"reset":1767272401,"headers":{"x-ratelimit-limit":"5000","x-ratelimit-remaining":"5000",' +
        '"x-ratelimit-used":"0","x-ratelimit-reset":"1767272401","x-ratelimit-resource":"core"}}',
    );
    const uncounted = limiter.admit({ identity, countsPrimary: false }).ticket!;
    expect(uncounted.countedReset).toBe(0);
    expect(JSON.stringify(uncounted)).toBe(
      '{"key":"user:octocat","resource":"core","graphql":false,"limit":5000,"countedReset":0,"hint":0,"id":2}',
    );
  });

  it('of a ticket counted in a window that ends off a whole second (a state given to step)', () => {
    const { state } = step(undefined, searchEvent(), T0, config);
    const odd = T0 + 30_000.5;
    const { verdict } = step({ ...state, searchReset: odd }, searchEvent({ graphql: true }), T0 + 10, config);
    expect(verdict.ticket?.countedReset).toBe(odd);
    expect(JSON.stringify(verdict.ticket)).toBe(
      '{"key":"user:a","resource":"search","graphql":true,"limit":30,"countedReset":1767268830250.5,"hint":-1,"id":0}',
    );
    // The copy a JSON round trip makes reads the same, and so settles the same way.
    expect(JSON.parse(JSON.stringify(verdict.ticket)).countedReset).toBe(odd);
  });

  it('of a ticket whose window ends after 2038 (epoch seconds beyond 32 bits)', () => {
    const late = Date.UTC(2040, 0, 1);
    const event = searchEvent({ key: 'ip:203.0.113.7', resource: 'lfs', limit: 300 });
    const { verdict } = step(undefined, event, late, config);
    expect(verdict.ticket?.countedReset).toBe(2_208_988_860_000);
    expect(JSON.stringify(verdict)).toBe(
      '{"allowed":true,"reason":"allowed","rule":null,"resource":"lfs","limit":300,"used":1,' +
        '"retryAt":null,"retryAfter":null,"status":null,"body":null,' +
        '"ticket":{"key":"ip:203.0.113.7","resource":"lfs","graphql":false,"limit":300,"countedReset":2208988860000,"hint":-1,"id":0},' +
        '"remaining":299,"reset":2208988860,"headers":{"x-ratelimit-limit":"300","x-ratelimit-remaining":"299",' +
        '"x-ratelimit-used":"1","x-ratelimit-reset":"2208988860","x-ratelimit-resource":"lfs"}}',
    );
  });

  it('of any ticket: graphql and countedReset read back as given, whatever the window end', () => {
    // The two share one private field (see CountedReset): whole seconds inverted for GraphQL, or a box.
    const windowEnd = fc.oneof(
      fc.constant(0),
      fc.integer({ min: 0, max: 2 ** 31 - 1 }).map((s) => s * 1000),
      fc.integer({ min: 2 ** 31, max: 2 ** 40 }).map((s) => s * 1000),
      fc.double({ min: -1e13, max: 1e13, noNaN: true }),
    );
    fc.assert(
      fc.property(windowEnd, fc.boolean(), (countedReset, graphql) => {
        const ticket = new AdmissionTicket('user:a', 'graphql', graphql, 5000, countedReset, 3, 9);
        expect(ticket.graphql).toBe(graphql);
        // -0 reads as 0, as it always has (JSON writes both as 0).
        expect(ticket.countedReset).toBe(countedReset === 0 ? 0 : countedReset);
        expect(JSON.parse(JSON.stringify(ticket))).toEqual({
          key: 'user:a',
          resource: 'graphql',
          graphql,
          limit: 5000,
          countedReset: countedReset === 0 ? 0 : countedReset,
          hint: 3,
          id: 9,
        });
      }),
      { numRuns: 1000 },
    );
  });

  it('of a refusal: the body, no ticket, content-type among the headers', () => {
    const limiter = createLimiter({ clock: () => T0 });
    const identity = limiter.identify({ kind: 'anonymous', ip: '203.0.113.7' });
    for (let i = 0; i < 60; i++) expect(limiter.admit({ identity }).allowed).toBe(true);
    expect(JSON.stringify(limiter.admit({ identity }))).toBe(
      '{"allowed":false,"reason":"primary_rate_limit","rule":"primary","resource":"core","limit":60,' +
        `"used":60,"retryAt":${CORE_END},"retryAfter":null,"status":403,"body":{"message":` +
        '"API rate limit exceeded for ip:203.0.113.7 (resource core).","documentation_url":' +
        '"https://docs.example.com/rest/rate-limits","status":"403"},"ticket":null,"remaining":0,' +
        '"reset":1767272401,"headers":{"x-ratelimit-limit":"60","x-ratelimit-remaining":"0",' +
        '"x-ratelimit-used":"60","x-ratelimit-reset":"1767272401","x-ratelimit-resource":"core",' +
        '"content-type":"application/json; charset=utf-8"}}',
    );
  });
});
