// A comparison of a loaded data/permissions.yaml against what the seed-listing facts say of each
// endpoint (test/support/permissions-table.ts), naming the seed line of every mismatch.
import { type ExpectedEndpoint, expectEndpoints } from './permissions-table.js';
import type { SeedFact } from './seed-facts.js';
/** A mismatch between the table and the facts, naming the seed line(s) it concerns. */
export interface Mismatch {
  ref: string;
  message: string;
}

const KNOWN_FIELDS = new Set([
  'fine_grained',
  'classic',
  'classic_private',
  'tokens',
  'tokens_shown',
  'public',
  'owner_only',
  'additional',
  'cost',
  'content',
  'resource',
  'counts_against_primary',
  'page_size',
  'listed',
  'source',
]);

type Entry = Record<string, unknown>;
const canon = (v: unknown): string =>
  JSON.stringify(v, (_k, x) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x,
  );
const sortedSet = (v: unknown): string => (Array.isArray(v) ? canon([...v].map(String).sort()) : canon(v));

function listedKey(item: unknown): { key: string; line: number | null } {
  const l = (item ?? {}) as Entry;
  const line = typeof l.line === 'number' ? l.line : null;
  const key = [l.permission, l.level, l.star === true ? '*' : '-', l.entries ?? 1, l.note ?? '-', line].join(
    ' ',
  );
  return { key, line };
}

type Cache = WeakMap<object, WeakMap<object, Mismatch[]>>;
const entryCache = new WeakMap<Map<string, ExpectedEndpoint>, Cache>();

/** Compares one endpoint entry with what the facts say of it. */
function compareEntry(e: ExpectedEndpoint, entry: Entry | null | undefined, defaults: Entry): Mismatch[] {
  const out: Mismatch[] = [];
  const effective = (en: Entry, field: string): unknown => en[field] ?? defaults[field];
  if (entry === undefined || entry === null) {
    for (const ref of e.refs) out.push({ ref, message: `${e.key} is missing from the table` });
    return out;
  }
  const check = (ok: boolean, refs: (string | null)[], what: string): void => {
    const named = refs.filter((r): r is string => r !== null);
    if (!ok)
      out.push({
        ref: named.length > 0 ? named.join(', ') : e.refs.join(', '),
        message: `${e.key}: ${what}`,
      });
  };
  const listed = Array.isArray(entry.listed) ? entry.listed.map(listedKey) : [];
  const want = e.listed.map((l) => listedKey(l));
  const remaining = [...listed];
  for (const w of want) {
    const at = remaining.findIndex((h) => h.key === w.key);
    if (at >= 0) remaining.splice(at, 1);
    else out.push({ ref: `001:${w.line}`, message: `${e.key}: listing \`${w.key}\` is not in \`listed\`` });
  }
  for (const extra of remaining) {
    out.push({
      ref: `001:${extra.line ?? '?'}`,
      message: `${e.key}: listed \`${extra.key}\` is not in the fixture`,
    });
  }
  check(canon(entry.fine_grained) === canon(e.fine), e.fineRefs, `fine_grained should be ${canon(e.fine)}`);
  check(
    canon(effective(entry, 'classic')) === canon(e.classic),
    [e.authRef],
    `classic should be ${canon(e.classic)}`,
  );
  check(
    canon(entry.classic_private ?? null) === canon(e.classicPrivate),
    [e.authRef],
    `classic_private should be ${canon(e.classicPrivate)}`,
  );
  check(
    sortedSet(effective(entry, 'tokens')) === sortedSet(e.tokens),
    e.tokenRefs,
    `tokens should be ${e.tokens}`,
  );
  check(
    (entry.tokens_shown ?? true) === e.tokensShown,
    [e.authRef],
    `tokens_shown should be ${e.tokensShown}`,
  );
  check((effective(entry, 'public') ?? false) === e.public, [e.authRef], `public should be ${e.public}`);
  check(
    (effective(entry, 'owner_only') ?? false) === e.owner,
    [e.authRef],
    `owner_only should be ${e.owner}`,
  );
  const starRefs = e.listed.filter((l) => l.star).map((l) => `001:${l.line}`);
  check((entry.additional ?? false) === e.additional, starRefs, `additional should be ${e.additional}`);
  check(
    (entry.counts_against_primary ?? true) === e.countsAgainstPrimary,
    [e.primaryRef],
    `counts_against_primary should be ${e.countsAgainstPrimary}`,
  );
  check(
    canon(entry.page_size ?? null) === canon(e.pageSize),
    [e.pageRef],
    `page_size should be ${canon(e.pageSize)}`,
  );
  for (const field of ['cost', 'content']) {
    check(entry[field] === undefined, [], `\`${field}\` is set but the seeds give no such fact`);
  }
  check((effective(entry, 'resource') ?? 'core') === 'core', [], 'resource should be core');
  const source = typeof entry.source === 'string' ? entry.source : '';
  for (const ref of e.refs)
    check(new RegExp(`\\b${ref}\\b`).test(source), [ref], `source does not cite ${ref}`);
  for (const field of Object.keys(entry)) check(KNOWN_FIELDS.has(field), [], `unknown field \`${field}\``);
  const implicit: Entry = { tokens_shown: true, additional: false, counts_against_primary: true };
  for (const field of ['classic', 'tokens', 'public', 'owner_only', 'resource', ...Object.keys(implicit)]) {
    const fallback = field in implicit ? implicit[field] : defaults[field];
    const redundant = entry[field] !== undefined && canon(entry[field]) === canon(fallback);
    check(!redundant, [], `\`${field}\` equals the default: omit it`);
  }
  return out;
}

/**
 * Compares a parsed permissions table with the facts (or the endpoints expected from them); an empty
 * list means they agree. The table is treated as immutable: an entry object compared once under the
 * same defaults is not compared again (mutate copies, never the compared objects).
 * @example compareTable(parse(readFileSync('data/permissions.yaml', 'utf8')), readFixture())
 */
export function compareTable(table: unknown, facts: SeedFact[] | Map<string, ExpectedEndpoint>): Mismatch[] {
  const out: Mismatch[] = [];
  const t = (table ?? {}) as Entry;
  const defaults = (t.defaults ?? {}) as Entry;
  const endpoints = (t.endpoints ?? {}) as Record<string, Entry | null>;
  const expected = facts instanceof Map ? facts : expectEndpoints(facts);
  const byDefaults = entryCache.get(expected) ?? new WeakMap();
  entryCache.set(expected, byDefaults);
  const cache = byDefaults.get(defaults) ?? new WeakMap();
  byDefaults.set(defaults, cache);
  for (const e of expected.values()) {
    const entry = endpoints[e.key];
    const cached = entry ? cache.get(entry) : undefined;
    const result = cached ?? compareEntry(e, entry, defaults);
    if (entry && cached === undefined) cache.set(entry, result);
    out.push(...result);
  }
  for (const [key, entry] of Object.entries(endpoints)) {
    if (expected.has(key)) continue;
    const source = typeof entry?.source === 'string' ? entry.source : 'no seed line';
    out.push({ ref: source, message: `${key} is in the table but the fixture does not list it` });
  }
  return out;
}
