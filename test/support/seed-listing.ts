// A parser of seed 001's listing notation (and, through seed-endpoints.ts, of seed 000's endpoint and
// Authentication tables) producing the facts of test/fixtures/seed-listing.tsv; re-exports the fixture reader.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { interpretSeed000 } from './seed-endpoints.js';
import type { Level, ListingFact, ListingNote, SeedFact, TokenRule, TokenRuleFact } from './seed-facts.js';

export * from './seed-facts.js';

export const SEED_000 = '000_bd4c15ac9208c064.txt';
export const SEED_001 = '001_24b152db782bca00.txt';
/** The seeds folder: `../shared/seeds` relative to the repository root. */
export const seedsDir = fileURLToPath(new URL('../../../shared/seeds/', import.meta.url));

export const METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE']);
const NOTE_READINGS: Record<string, ListingNote | 'two-entries'> = {
  'UAT only': 'uat-only',
  'UAT only, not for PAT': 'uat-only,not-pat',
  'write level': 'write-level',
  'two entries': 'two-entries',
};
const COUNT_WORDS: Record<string, number> = {
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
};

function snake(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}

interface MethodWord {
  method: string;
  star: boolean;
  notes: string[];
}
interface Group {
  methods: MethodWord[];
  paths: string[];
  notes: string[];
}

/**
 * Splits one `;`-separated item into groups of methods and the paths they apply to. A method that
 * follows a path opens a new group; a parenthesised note binds to the method or path it follows.
 * @example tokenizeItem('PUT* (two entries) and DELETE* R/x') // one group, two starred methods
 */
export function tokenizeItem(item: string): Group[] {
  const re = /\s*(?:([A-Z]+)(\*?)(?=[\s,(]|$)|\(([^)]*)\)|(,\s*and\b|,|\band\b|\bon\b)|([^\s,;()]+))/y;
  const groups: Group[] = [];
  let group: Group = { methods: [], paths: [], notes: [] };
  let last: 'method' | 'path' | null = null;
  re.lastIndex = 0;
  while (re.lastIndex < item.length) {
    const start = re.lastIndex;
    const m = re.exec(item);
    if (!m || re.lastIndex === start) {
      if (item.slice(start).trim() === '') break;
      throw new Error(`cannot read \`${item.slice(start)}\` in \`${item}\``);
    }
    const [, word, star, note, , path] = m;
    if (word !== undefined && METHODS.has(word)) {
      if (group.paths.length > 0) {
        groups.push(group);
        group = { methods: [], paths: [], notes: [] };
      }
      group.methods.push({ method: word, star: star === '*', notes: [] });
      last = 'method';
    } else if (note !== undefined) {
      const target = last === 'method' ? group.methods[group.methods.length - 1]?.notes : group.notes;
      target?.push(note.trim());
    } else if (path !== undefined || word !== undefined) {
      group.paths.push(path ?? `${word}${star}`);
      last = 'path';
    }
  }
  if (group.methods.length > 0 || group.paths.length > 0) groups.push(group);
  return groups;
}

function readNotes(notes: string[], where: string): { note: ListingNote | null; entries: 1 | 2 } {
  let entries: 1 | 2 = 1;
  const found: ListingNote[] = [];
  for (const text of notes) {
    const reading = NOTE_READINGS[text];
    if (reading === undefined) throw new Error(`${where}: unknown note \`(${text})\``);
    if (reading === 'two-entries') entries = 2;
    else found.push(reading);
  }
  if (found.length > 1) throw new Error(`${where}: several notes ${found.join(', ')}`);
  return { note: found[0] ?? null, entries };
}

interface Section {
  slug: string;
  prefix: string | null;
  starAll: boolean;
}

/**
 * Parses seed 001 into its listing and token-rule facts.
 * @example parseSeed001(readFileSync('../shared/seeds/001_....txt', 'utf8')).length
 */
export function parseSeed001(text: string): SeedFact[] {
  const lines = text.split('\n');
  const abbrev = new Map<string, string>();
  const listings: ListingFact[] = [];
  const tokenLines: { lineNo: number; rule: TokenRule; text: string }[] = [];
  let section: Section | null = null;
  let level: Level | null = null;
  let inTokenKinds = false;

  const expandAbbrev = (raw: string): string | null => {
    const first = raw.split('/')[0] ?? '';
    const full = abbrev.get(first);
    return full === undefined ? null : full + raw.slice(first.length);
  };

  const parseSegment = (segment: string, lineNo: number, lvl: Level, sec: Section): void => {
    const ref = `001:${lineNo}`;
    const sentences = segment.replace(/\.\s*$/, '').split(/\.\s+(?=[A-Z])/);
    for (const sentence of sentences) {
      // "Also GET R/environments; ..." (001:106) opens a further sentence of the same list.
      const items = sentence.replace(/^Also\s+/, '').split(/;\s+/);
      let prevMethods: string[] = [];
      let prevPath: string | null = null;
      let ellipsisPrefix: string | null = null;
      const raws: string[] = [];
      const emit = (methods: MethodWord[], raw: string, groupNotes: string[]): void => {
        let path: string;
        if (raw.startsWith('...')) {
          // "..." = the previous path's prefix up to the segment named after it; later "..." items of
          // the same list reuse that prefix (001:86, 001:106).
          if (ellipsisPrefix === null) {
            const firstSeg = raw.slice(4).split('/')[0] ?? '';
            const segs = (prevPath ?? '').split('/');
            const at = segs.lastIndexOf(firstSeg);
            if (at < 0) throw new Error(`${ref}: \`${raw}\` names no segment of \`${prevPath}\``);
            ellipsisPrefix = segs.slice(0, at).join('/');
          }
          path = ellipsisPrefix + raw.slice(3);
        } else if (raw.startsWith('/')) path = raw;
        else {
          const expanded = expandAbbrev(raw);
          if (expanded !== null) path = expanded;
          else if (sec.prefix !== null) path = `${sec.prefix}/${raw}`;
          else throw new Error(`${ref}: \`${raw}\` is not a path`);
        }
        prevPath = path;
        raws.push(raw);
        for (const m of methods) {
          const { note, entries } = readNotes([...m.notes, ...groupNotes], ref);
          listings.push({
            kind: 'listing',
            ref,
            method: m.method,
            path,
            permission: sec.slug,
            level: lvl,
            star: m.star || sec.starAll,
            entries,
            note,
          });
        }
      };
      for (const item of items) {
        const inherited = prevMethods.map((method) => ({ method, star: false, notes: [] }));
        const subPaths = /^and its sub-paths (.+)$/.exec(item);
        const sameUnder = /^and the same (\w+) paths under (\S+)$/.exec(item);
        if (subPaths?.[1] !== undefined) {
          // "GET O/actions/permissions; and its sub-paths a, b" (001:52) = GET O/actions/permissions/a, /b.
          const base: string | null = prevPath;
          for (const sub of subPaths[1].split(/,\s*/)) emit(inherited, `${base}/${sub}`, []);
          prevPath = base;
        } else if (sameUnder?.[1] !== undefined && sameUnder[2] !== undefined) {
          // "and the same six paths under DT" (001:98): the list's previous six paths, D replaced by DT.
          const count = COUNT_WORDS[sameUnder[1]];
          const previous = raws.slice(-(count ?? 0));
          if (count === undefined || previous.length !== count)
            throw new Error(`${ref}: cannot read \`${item}\``);
          for (const raw of previous)
            emit(inherited, sameUnder[2] + raw.slice(raw.split('/')[0]?.length), []);
        } else {
          const groups = tokenizeItem(item);
          if (groups.length !== 1) throw new Error(`${ref}: \`${item}\` is not one item`);
          const group = groups[0] as Group;
          // An item without a method inherits the previous item's method, never its star.
          const methods = group.methods.length > 0 ? group.methods : inherited;
          if (methods.length === 0 || group.paths.length !== 1)
            throw new Error(`${ref}: cannot read \`${item}\``);
          emit(methods, group.paths[0] as string, group.notes);
          prevMethods = methods.map((m) => m.method);
        }
      }
    }
  };

  lines.forEach((raw, index) => {
    const lineNo = index + 1;
    const line = raw.trim();
    if (line.startsWith('## ')) section = null;
    if (line.startsWith('### ')) {
      inTokenKinds = line === '### Token kinds';
      const m = /^### (Organization|Repository) permissions: (.+)$/.exec(line);
      section = m
        ? {
            slug: (m[1] === 'Organization' ? 'organization_' : '') + snake(m[2] ?? ''),
            prefix: null,
            starAll: false,
          }
        : null;
      level = null;
      return;
    }
    if (line.startsWith('Notation:') || line.startsWith('Let ')) {
      for (const d of line.matchAll(/\b([A-Z]{1,2}) = (\S+?)(?=;|\.\s|\.$|\s)/g)) {
        const value = d[2] ?? '';
        abbrev.set(d[1] ?? '', expandAbbrev(value) ?? value);
      }
      return;
    }
    if (inTokenKinds) {
      const m = /^- (UAT only \(not IAT\)|Not listed for PAT): (.*)$/.exec(line);
      if (m?.[2] !== undefined)
        tokenLines.push({ lineNo, rule: m[1]?.startsWith('UAT') ? 'uat-only' : 'not-pat', text: m[2] });
      return;
    }
    const sec: Section | null = section;
    if (sec === null) return;
    const prefix = /^All paths are under (\S+) unless a full path is given\.$/.exec(line);
    if (prefix?.[1] !== undefined) {
      sec.prefix = expandAbbrev(prefix[1]);
      return;
    }
    let rest = line;
    if (line.startsWith('All entries carry *.')) {
      // 001:59: the whole Assistant Business section is starred; both levels on one line.
      sec.starAll = true;
      rest = line.slice('All entries carry *.'.length).trim();
      for (const m of rest.matchAll(/(write|read):\s*(.*?)(?=\s+(?:write|read):|$)/g)) {
        parseSegment(m[2] ?? '', lineNo, m[1] as Level, sec);
      }
      return;
    }
    const head = /^(write|read)(?: \([^)]*\))?:\s*(.*)$/.exec(line);
    if (head) {
      level = head[1] as Level;
      if (head[2]) parseSegment(head[2], lineNo, level, sec);
    } else if (line.startsWith('- ') && level !== null) parseSegment(line.slice(2), lineNo, level, sec);
  });

  const listed = new Set(listings.map((l) => `${l.method} ${l.path}`));
  const rules: TokenRuleFact[] = [];
  for (const { lineNo, rule, text } of tokenLines) {
    for (const item of text.replace(/\.\s*$/, '').split(/;\s+/)) {
      for (const group of tokenizeItem(item)) {
        const pairs = group.methods.flatMap((m) => group.paths.map((path) => ({ method: m.method, path })));
        // "PATCH, DELETE and GET on P1 and P2 (...)" (001:25): of the cross product, the pairs the listing has.
        const kept =
          group.methods.length > 1 && group.paths.length > 1
            ? pairs.filter((p) => listed.has(`${p.method} ${p.path}`))
            : pairs;
        for (const p of kept) rules.push({ kind: 'token-rule', ref: `001:${lineNo}`, ...p, rule });
      }
    }
  }
  return [...rules, ...listings];
}

/** Parses seed 000 into its endpoint, auth and counts-against-primary facts. */
export function parseSeed000(text: string): SeedFact[] {
  return interpretSeed000(text);
}

/** Both seeds' facts, read from `dir`. */
export function parseSeeds(dir: string = seedsDir): SeedFact[] {
  return [
    ...parseSeed001(readFileSync(`${dir}/${SEED_001}`, 'utf8')),
    ...parseSeed000(readFileSync(`${dir}/${SEED_000}`, 'utf8')),
  ];
}
