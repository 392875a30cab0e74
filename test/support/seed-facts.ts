// The facts of the specification's listing and their fixture form: one fact a line of
// test/fixtures/seed-listing.tsv (format in its header), written by formatFact and read by readFixture.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type Level = 'read' | 'write';
/** A listing note of 001, or a combination of them (`uat-only,not-pat`). */
export type ListingNote = 'uat-only' | 'not-pat' | 'uat-only,not-pat' | 'write-level';
export type TokenRule = 'uat-only' | 'not-pat';

/** One entry of 001's listing: an endpoint under one permission category and level. */
export interface ListingFact {
  kind: 'listing';
  ref: string;
  method: string;
  path: string;
  permission: string;
  level: Level;
  star: boolean;
  entries: 1 | 2;
  note: ListingNote | null;
}
/** One endpoint of 001's "Token kinds" lists. */
export interface TokenRuleFact {
  kind: 'token-rule';
  ref: string;
  method: string;
  path: string;
  rule: TokenRule;
}
/** One row of 000's endpoint tables. */
export interface EndpointFact {
  kind: 'endpoint';
  ref: string;
  method: string;
  path: string;
  pageDefault: number | null;
  pageMax: number | null;
}
/** What 000's Authentication table says of one endpoint (requirements in the fixture's encoding). */
export interface AuthFact {
  kind: 'auth';
  ref: string;
  method: string;
  path: string;
  classic: string;
  classicPrivate: string | null;
  fine: string;
  tokens: string;
  public: boolean;
  owner: boolean;
}
/** 000's note that an endpoint does not count against the primary limit. */
export interface PrimaryFact {
  kind: 'counts-against-primary';
  ref: string;
  method: string;
  path: string;
  counts: false;
}
export type SeedFact = ListingFact | TokenRuleFact | EndpointFact | AuthFact | PrimaryFact;

export const fixtureFile = fileURLToPath(new URL('../fixtures/seed-listing.tsv', import.meta.url));

const dash = (v: string | number | null): string => (v === null ? '-' : String(v));
const yesNo = (v: boolean): string => (v ? 'yes' : 'no');

/** One fact as its fixture line (tab-separated). */
export function formatFact(f: SeedFact): string {
  switch (f.kind) {
    case 'listing':
      return [
        f.ref,
        f.kind,
        f.method,
        f.path,
        f.permission,
        f.level,
        f.star ? '*' : '-',
        f.entries,
        dash(f.note),
      ].join('\t');
    case 'token-rule':
      return [f.ref, f.kind, f.method, f.path, f.rule].join('\t');
    case 'endpoint':
      return [f.ref, f.kind, f.method, f.path, dash(f.pageDefault), dash(f.pageMax)].join('\t');
    case 'auth':
      return [
        f.ref,
        f.kind,
        f.method,
        f.path,
        `classic=${f.classic}`,
        `classic_private=${dash(f.classicPrivate)}`,
        `fine=${f.fine}`,
        `tokens=${f.tokens}`,
        `public=${yesNo(f.public)}`,
        `owner=${yesNo(f.owner)}`,
      ].join('\t');
    case 'counts-against-primary':
      return [f.ref, f.kind, f.method, f.path, 'no'].join('\t');
  }
}

function field(cells: string[], i: number, key?: string): string {
  const cell = cells[i];
  if (cell === undefined) throw new Error(`missing field ${i + 1}`);
  if (key === undefined) return cell;
  if (!cell.startsWith(`${key}=`)) throw new Error(`field ${i + 1} is not \`${key}=...\``);
  return cell.slice(key.length + 1);
}
const orNull = (v: string): string | null => (v === '-' ? null : v);

/** Parses the fixture's text; `#` lines and blank lines are comments. Throws naming the fixture line. */
export function parseFixture(text: string): SeedFact[] {
  const facts: SeedFact[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '' || line.startsWith('#')) return;
    const c = line.split('\t');
    try {
      const [ref, kind, method, path] = [field(c, 0), field(c, 1), field(c, 2), field(c, 3)];
      if (kind === 'listing') {
        const note = orNull(field(c, 8));
        facts.push({
          kind,
          ref,
          method,
          path,
          permission: field(c, 4),
          level: field(c, 5) as Level,
          star: field(c, 6) === '*',
          entries: field(c, 7) === '2' ? 2 : 1,
          note: note as ListingNote | null,
        });
      } else if (kind === 'token-rule')
        facts.push({ kind, ref, method, path, rule: field(c, 4) as TokenRule });
      else if (kind === 'endpoint') {
        const [d, m] = [orNull(field(c, 4)), orNull(field(c, 5))];
        facts.push({
          kind,
          ref,
          method,
          path,
          pageDefault: d === null ? null : Number(d),
          pageMax: m === null ? null : Number(m),
        });
      } else if (kind === 'auth') {
        facts.push({
          kind,
          ref,
          method,
          path,
          classic: field(c, 4, 'classic'),
          classicPrivate: orNull(field(c, 5, 'classic_private')),
          fine: field(c, 6, 'fine'),
          tokens: field(c, 7, 'tokens'),
          public: field(c, 8, 'public') === 'yes',
          owner: field(c, 9, 'owner') === 'yes',
        });
      } else if (kind === 'counts-against-primary') facts.push({ kind, ref, method, path, counts: false });
      else throw new Error(`unknown kind \`${kind}\``);
    } catch (error) {
      throw new Error(`seed-listing.tsv:${index + 1}: ${(error as Error).message}`);
    }
  });
  return facts;
}

/** The fixture's facts. */
export function readFixture(file: string = fixtureFile): SeedFact[] {
  return parseFixture(readFileSync(file, 'utf8'));
}
