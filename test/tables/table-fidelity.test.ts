// Proves data/permissions.yaml against test/fixtures/seed-listing.tsv, entry by entry: every listing
// of 001 and every endpoint of 000 with what the seeds say of it, and nothing else.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { compareTable, type Mismatch } from '../support/permissions-compare.js';
import { expectEndpoints, permissionsFile } from '../support/permissions-table.js';
import { type ListingFact, readFixture } from '../support/seed-listing.js';

const facts = readFixture();
const table = parse(readFileSync(permissionsFile, 'utf8')) as {
  version: number;
  rules: Record<string, unknown>;
  defaults: Record<string, unknown>;
  endpoints: Record<string, Record<string, unknown>>;
};
const expected = expectEndpoints(facts);
const listings = facts.filter((f): f is ListingFact => f.kind === 'listing');

type Entry = Record<string, unknown>;
const report = (mismatches: Mismatch[]): string => mismatches.map((m) => `${m.ref}: ${m.message}`).join('\n');
/** A copy of the table with one endpoint entry changed (that entry deep-copied, the others shared). */
const mutate = (key: string, change: (entry: Entry) => void): typeof table => {
  const entry = structuredClone(table.endpoints[key]) as Entry;
  change(entry);
  return { ...table, endpoints: { ...table.endpoints, [key]: entry } };
};
const withListed = (f: ListingFact, change: (item: Entry, items: Entry[]) => void): typeof table =>
  mutate(`${f.method} ${f.path}`, (entry) => {
    const items = entry.listed as Entry[];
    const item = items.find((i) => i.line === Number(f.ref.slice(4)) && i.permission === f.permission);
    if (item === undefined) throw new Error(`${f.ref}: no listed item to change`);
    change(item, items);
  });

describe('data/permissions.yaml against the seed listing fixture', () => {
  it('holds every fact of the fixture and nothing the fixture does not list', () => {
    const mismatches = compareTable(table, facts);
    expect(mismatches.length).toBe(0);
    expect(report(mismatches)).toBe('');
  });

  it('has exactly one entry per METHOD /path of both seeds', () => {
    expect(Object.keys(table.endpoints).sort()).toEqual([...expected.keys()].sort());
  });

  it('states the seed point costs: GET, HEAD, OPTIONS 1 and POST, PUT, PATCH, DELETE 5 (000:368)', () => {
    expect(table.rules.cost).toEqual({ GET: 1, HEAD: 1, OPTIONS: 1, POST: 5, PUT: 5, PATCH: 5, DELETE: 5 });
  });

  it('gives GET /repos/{owner}/{repo}/issues/events/{event_id} the either-one requirement of 000:279', () => {
    expect(table.endpoints['GET /repos/{owner}/{repo}/issues/events/{event_id}']?.fine_grained).toEqual([
      { issues: 'read' },
      { pull_requests: 'read' },
    ]);
  });
});

describe('the fidelity comparison fails on any single change, naming the seed line', () => {
  const refsOf = (m: Mismatch[]): string => m.map((x) => x.ref).join(', ');

  it('names every seed line of an endpoint when that endpoint is removed', () => {
    for (const e of expected.values()) {
      const endpoints = { ...table.endpoints };
      delete endpoints[e.key];
      const refs = refsOf(compareTable({ ...table, endpoints }, expected));
      for (const ref of e.refs) expect(refs, `${e.key} removed`).toContain(ref);
    }
  });

  it('names the listing line when a listing is removed or its level, star, entries or note change', () => {
    for (const f of listings) {
      const mutations: [string, typeof table][] = [
        ['removed', withListed(f, (item, items) => items.splice(items.indexOf(item), 1))],
        ['level flipped', withListed(f, (item) => (item.level = f.level === 'read' ? 'write' : 'read'))],
        ['star flipped', withListed(f, (item) => (item.star = !f.star))],
        ['entries changed', withListed(f, (item) => (item.entries = f.entries === 2 ? 1 : 2))],
        ['note changed', withListed(f, (item) => (item.note = f.note === null ? 'uat-only' : undefined))],
      ];
      for (const [what, t] of mutations) {
        expect(refsOf(compareTable(t, expected)), `${f.ref} ${f.method} ${f.path}: ${what}`).toContain(f.ref);
      }
    }
  });

  it('names the governing lines when an endpoint requirement, its tokens or its star flag change', () => {
    for (const e of expected.values()) {
      const changed = (field: string, value: unknown): string =>
        refsOf(
          compareTable(
            mutate(e.key, (entry) => (entry[field] = value)),
            expected,
          ),
        );
      expect(changed('fine_grained', [{ contents: 'admin' }]), `${e.key} fine_grained`).toContain(
        e.fineRefs[0],
      );
      expect(changed('tokens', ['workflow']), `${e.key} tokens`).not.toBe('');
      expect(changed('additional', !e.additional), `${e.key} additional`).not.toBe('');
      expect(changed('source', 'nowhere'), `${e.key} source`).toContain(e.refs[0]);
      if (e.authRef !== null) {
        expect(changed('classic', [['gist']]), `${e.key} classic`).toContain(e.authRef);
        expect(changed('public', !e.public), `${e.key} public`).toContain(e.authRef);
        expect(changed('owner_only', !e.owner), `${e.key} owner_only`).toContain(e.authRef);
        expect(changed('tokens_shown', !e.tokensShown), `${e.key} tokens_shown`).toContain(e.authRef);
      }
      if (e.pageRef !== null) {
        expect(changed('page_size', { default: 1, max: 1 }), `${e.key} page_size`).toContain(e.pageRef);
      }
    }
  });

  it('names each token-rule line when its endpoint accepts every token kind', () => {
    for (const f of facts) {
      if (f.kind !== 'token-rule') continue;
      const t = mutate(`${f.method} ${f.path}`, (entry) => delete entry.tokens);
      expect(refsOf(compareTable(t, expected)), `${f.ref} ${f.method} ${f.path}`).toContain(f.ref);
    }
  });

  it('reports a field written with its default value', () => {
    const key = 'GET /orgs/{org}/migrations';
    const found = report(
      compareTable(
        mutate(key, (entry) => (entry.public = false)),
        expected,
      ),
    );
    expect(found).toContain(`${key}: \`public\` equals the default: omit it`);
  });

  it('reports an endpoint the fixture does not list', () => {
    const key = 'GET /repos/{owner}/{repo}/not-in-any-seed';
    const endpoints = { ...table.endpoints, [key]: { fine_grained: [{ contents: 'read' }], source: 'none' } };
    expect(report(compareTable({ ...table, endpoints }, expected))).toContain(key);
  });
});
