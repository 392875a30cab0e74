// Proves test/fixtures/seed-listing.tsv against the seed text in ../shared/seeds/ (relative to the
// repository root): the parser's facts and the fixture's facts are the same, line for line.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  formatFact,
  type ListingFact,
  parseSeed001,
  parseSeeds,
  readFixture,
  SEED_000,
  SEED_001,
  type SeedFact,
  seedsDir,
  tokenizeItem,
} from '../support/seed-listing.js';

/** Facts one side has and the other lacks, each naming its seed line (`001:183`). */
function compareFacts(fromSeed: SeedFact[], fromFixture: SeedFact[]): string[] {
  const count = new Map<string, number>();
  for (const f of fromSeed) count.set(formatFact(f), (count.get(formatFact(f)) ?? 0) + 1);
  const extra: string[] = [];
  for (const f of fromFixture) {
    const line = formatFact(f);
    const n = count.get(line) ?? 0;
    if (n === 0) extra.push(`${f.ref}: in the fixture but not in the seed: ${line}`);
    else count.set(line, n - 1);
  }
  const missing = [...count].flatMap(([line, n]) =>
    Array.from(
      { length: n },
      () => `${line.split('\t')[0]}: in the seed but missing from the fixture: ${line}`,
    ),
  );
  return [...missing, ...extra];
}

const present = existsSync(`${seedsDir}/${SEED_001}`) && existsSync(`${seedsDir}/${SEED_000}`);

if (present) {
  describe('the seed listing fixture against ../shared/seeds', () => {
    const fromSeed = parseSeeds();
    const fromFixture = readFixture();

    it('holds exactly the facts the parser reads from the seed text', () => {
      expect(compareFacts(fromSeed, fromFixture).join('\n')).toBe('');
    });

    it('reads 492 distinct METHOD+path pairs from 001 and 45 endpoints from 000', () => {
      const pairs = new Set(fromSeed.filter((f) => f.kind === 'listing').map((f) => `${f.method} ${f.path}`));
      expect(pairs.size).toBe(492);
      expect(fromSeed.filter((f) => f.kind === 'endpoint')).toHaveLength(45);
    });

    it('names the seed line of a fact missing from the fixture or added to it', () => {
      fromFixture.forEach((fact, i) => {
        const without = fromFixture.filter((_, j) => j !== i);
        expect(compareFacts(fromSeed, without)).toEqual([
          `${fact.ref}: in the seed but missing from the fixture: ${formatFact(fact)}`,
        ]);
      });
      const listing = fromFixture.find((f): f is ListingFact => f.kind === 'listing') as ListingFact;
      const changed: ListingFact = { ...listing, star: !listing.star };
      expect(compareFacts(fromSeed, [...fromFixture, changed])).toEqual([
        `${listing.ref}: in the fixture but not in the seed: ${formatFact(changed)}`,
      ]);
    });
  });
} else {
  it('fails in CI when ../shared/seeds is absent, and elsewhere says in one line that it is not checked', () => {
    console.warn(
      'seed fidelity: ../shared/seeds not found; the fixture is not checked against the seed text',
    );
    expect(process.env.CI).not.toBe('true');
  });
}

describe('the seed 001 listing parser', () => {
  const parse = (body: string): string[] =>
    parseSeed001(
      [
        'Notation: O = /orgs/{org}; R = /repos/{owner}/{repo}. Each entry is METHOD path.',
        '### Repository permissions: Contents',
        'write:',
        body,
      ].join('\n'),
    ).map((f) => formatFact(f).split('\t').slice(2).join(' '));

  it('stars only the entry written with *, and lets later items inherit the method without the star', () => {
    expect(parse('- GET* R/pulls/{pull_number}; R/readme')).toEqual([
      'GET /repos/{owner}/{repo}/pulls/{pull_number} contents write * 1 -',
      'GET /repos/{owner}/{repo}/readme contents write - 1 -',
    ]);
  });

  it('reads "PUT* (two entries) and DELETE* X" as two starred listings with two entries each', () => {
    expect(parse('- PUT* (two entries) and DELETE* (two entries) R/contents/{path}')).toEqual([
      'PUT /repos/{owner}/{repo}/contents/{path} contents write * 2 -',
      'DELETE /repos/{owner}/{repo}/contents/{path} contents write * 2 -',
    ]);
  });

  it('binds a note after a method word to that method and a note after a path to the whole item', () => {
    expect(
      parse('- PATCH (UAT only, not for PAT) and DELETE R/x; PUT and DELETE O/y (UAT only); GET O/z'),
    ).toEqual([
      'PATCH /repos/{owner}/{repo}/x contents write - 1 uat-only,not-pat',
      'DELETE /repos/{owner}/{repo}/x contents write - 1 -',
      'PUT /orgs/{org}/y contents write - 1 uat-only',
      'DELETE /orgs/{org}/y contents write - 1 uat-only',
      'GET /orgs/{org}/z contents write - 1 -',
    ]);
  });

  it('expands "..." to the previous path prefix and reuses it for later "..." items', () => {
    expect(parse('- GET R/e/{n}/a; .../a/{id}; .../b').map((l) => l.split(' ')[1])).toEqual([
      '/repos/{owner}/{repo}/e/{n}/a',
      '/repos/{owner}/{repo}/e/{n}/a/{id}',
      '/repos/{owner}/{repo}/e/{n}/b',
    ]);
  });

  it('expands "and its sub-paths" below the previous path', () => {
    expect(parse('- GET O/p; and its sub-paths a, b/c').map((l) => l.split(' ')[1])).toEqual([
      '/orgs/{org}/p',
      '/orgs/{org}/p/a',
      '/orgs/{org}/p/b/c',
    ]);
  });

  it('splits a token-rule item into method and path groups', () => {
    expect(
      tokenizeItem('POST /a and PATCH /b/{id}').map((g) => [g.methods.map((m) => m.method), g.paths]),
    ).toEqual([
      [['POST'], ['/a']],
      [['PATCH'], ['/b/{id}']],
    ]);
  });

  it('rejects a note it has no reading for', () => {
    expect(() => parse('- GET R/x (admin only)')).toThrow('unknown note `(admin only)`');
  });
});
