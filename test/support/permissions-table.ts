// What data/permissions.yaml must say of each endpoint, derived from the seed-listing facts, and a
// comparison of a loaded table against it that names the seed line of every mismatch.
import { fileURLToPath } from 'node:url';
import type { AuthFact, Level, SeedFact } from './seed-facts.js';

export const permissionsFile = fileURLToPath(new URL('../../data/permissions.yaml', import.meta.url));
export const ALL_KINDS = ['classic', 'oauth-app', 'fine-grained', 'app-user', 'app-installation'];

type FineRequirement = 'none' | Record<string, Level>[];
type ClassicRequirement = 'not_shown' | string[][];

/** One `listed` item of an endpoint. */
export interface ListedItem {
  permission: string;
  level: Level;
  star: boolean;
  entries: 1 | 2;
  note: string | null;
  line: number;
}

/** What the table must hold for one `METHOD /path`, with the seed lines each field comes from. */
export interface ExpectedEndpoint {
  key: string;
  refs: string[];
  fine: FineRequirement;
  fineRefs: string[];
  classic: ClassicRequirement;
  classicPrivate: string[][] | null;
  authRef: string | null;
  tokens: string[];
  tokensShown: boolean;
  tokenRefs: string[];
  public: boolean;
  owner: boolean;
  additional: boolean;
  countsAgainstPrimary: boolean;
  primaryRef: string | null;
  pageSize: { default: number; max: number } | null;
  pageRef: string | null;
  listed: ListedItem[];
}

/** `a:read+b:write|c:read` -> [{a: read, b: write}, {c: read}]; `none`, `nothing` -> none, [{}]. */
export function decodeFine(text: string): FineRequirement {
  if (text === 'none') return 'none';
  if (text === 'nothing') return [{}];
  return text
    .split('|')
    .map((alt) => Object.fromEntries(alt.split('+').map((p) => p.split(':') as [string, Level])));
}

/** `notifications|repo` -> [[notifications], [repo]]; `not_shown`; `nothing` -> [[]]. */
export function decodeClassic(text: string): ClassicRequirement {
  if (text === 'not_shown') return 'not_shown';
  if (text === 'nothing') return [[]];
  return text.split('|').map((alt) => alt.split('+'));
}

function blank(key: string): ExpectedEndpoint {
  return {
    key,
    refs: [],
    fine: [{}],
    fineRefs: [],
    classic: 'not_shown',
    classicPrivate: null,
    authRef: null,
    tokens: ALL_KINDS,
    tokensShown: true,
    tokenRefs: [],
    public: false,
    owner: false,
    additional: false,
    countsAgainstPrimary: true,
    primaryRef: null,
    pageSize: null,
    pageRef: null,
    listed: [],
  };
}

/**
 * Derives each endpoint's expected entry from the facts: a 001 endpoint needs every listed permission
 * at its level (write wins over read; DESIGN.md section 1: all listed permissions of a starred endpoint
 * are required); 000's Authentication row gives scopes, token kinds, public and owner facts. Token notes:
 * uat-only ("UAT only (not IAT)", 001:25) drops app-installation; not-pat (001:26) drops fine-grained.
 */
export function expectEndpoints(facts: SeedFact[]): Map<string, ExpectedEndpoint> {
  const out = new Map<string, ExpectedEndpoint>();
  const get = (f: { method: string; path: string }): ExpectedEndpoint => {
    const key = `${f.method} ${f.path}`;
    const e = out.get(key) ?? blank(key);
    out.set(key, e);
    return e;
  };
  const rules = new Map<string, { rule: string; ref: string }[]>();
  const auths = new Map<string, AuthFact>();
  for (const f of facts) {
    const e = get(f);
    if (!e.refs.includes(f.ref)) e.refs.push(f.ref);
    const line = Number(f.ref.split(':')[1]);
    if (f.kind === 'listing') {
      e.listed.push({
        permission: f.permission,
        level: f.level,
        star: f.star,
        entries: f.entries,
        note: f.note,
        line,
      });
      e.fineRefs.push(f.ref);
      if (f.star) e.additional = true;
      for (const rule of f.note?.split(',') ?? []) {
        if (rule !== 'write-level') rules.set(e.key, [...(rules.get(e.key) ?? []), { rule, ref: f.ref }]);
      }
    } else if (f.kind === 'token-rule') {
      rules.set(e.key, [...(rules.get(e.key) ?? []), { rule: f.rule, ref: f.ref }]);
    } else if (f.kind === 'endpoint') {
      if (f.pageDefault !== null && f.pageMax !== null) {
        e.pageSize = { default: f.pageDefault, max: f.pageMax };
        e.pageRef = f.ref;
      }
    } else if (f.kind === 'counts-against-primary') {
      e.countsAgainstPrimary = false;
      e.primaryRef = f.ref;
    } else auths.set(e.key, f);
  }
  for (const e of out.values()) {
    if (e.listed.length > 0) {
      const alt: Record<string, Level> = {};
      for (const l of e.listed) if (alt[l.permission] !== 'write') alt[l.permission] = l.level;
      e.fine = [alt];
    }
    const auth = auths.get(e.key);
    if (auth !== undefined) {
      // Where 001 lists the endpoint too (organization pattern configurations), both must agree;
      // the comparison reports a disagreement against both lines.
      const fromAuth = decodeFine(auth.fine);
      if (e.listed.length === 0 || JSON.stringify(fromAuth) === JSON.stringify(e.fine)) e.fine = fromAuth;
      else e.fine = [{ seeds_disagree: 'write' }];
      e.fineRefs.push(auth.ref);
      e.classic = decodeClassic(auth.classic);
      e.classicPrivate =
        auth.classicPrivate === null ? null : (decodeClassic(auth.classicPrivate) as string[][]);
      e.authRef = auth.ref;
      const kinds = auth.tokens.split(',');
      e.tokens = kinds.map((k) => k.replace(/^\?/, ''));
      // 001:23 ("usable with UAT and IAT and PAT unless marked") shows the kinds of an endpoint it lists.
      e.tokensShown = !kinds.some((k) => k.startsWith('?')) || e.listed.length > 0;
      e.tokenRefs.push(auth.ref);
      e.public = auth.public;
      e.owner = auth.owner;
    }
    for (const { rule, ref } of rules.get(e.key) ?? []) {
      const drop = rule === 'uat-only' ? 'app-installation' : 'fine-grained';
      e.tokens = e.tokens.filter((k) => k !== drop);
      if (!e.tokenRefs.includes(ref)) e.tokenRefs.push(ref);
    }
  }
  return out;
}

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
