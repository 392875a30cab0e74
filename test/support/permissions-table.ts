// What data/permissions.yaml must say of each endpoint, derived from the seed-listing facts
// (test/support/permissions-compare.ts compares a loaded table against it).
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
