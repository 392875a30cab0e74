// The table's endpoints as routes for other routers: each template split into segments, spelled
// in each framework's route syntax, in the order routers that try routes one by one need; and
// limits no spelling test reaches, so every refusal is the policy's; and the ways a request may
// spell a route's path (letter case, slashes, encodings, look-alike letters, a prefix).
import fc from 'fast-check';
import { defaultLimits } from '../../src/limits/default-limits.js';
import type { LimitsConfig } from '../../src/limits/limits-config.js';

/** One table endpoint: its key, method and template split into static, param and multi segments. */
export interface TableRoute {
  readonly key: string;
  readonly method: string;
  readonly segments: readonly { readonly kind: 'static' | 'param' | 'multi'; readonly text: string }[];
}

// The matcher's multi-segment parameters (data/permissions.yaml, `multi_segment_params`).
const MULTI =
  /\/(contents\/\{path\}|readme\/\{dir\}|git\/ref\/\{ref\}|git\/refs\/\{ref\}|git\/matching-refs\/\{ref\})$/;

export function tableRoute(key: string): TableRoute {
  const [method, template] = key.split(' ') as [string, string];
  const multi = MULTI.test(template);
  const parts = template.split('/').slice(1);
  return {
    key,
    method,
    segments: parts.map((text, i) => {
      if (!text.startsWith('{')) return { kind: 'static', text };
      return { kind: multi && i === parts.length - 1 ? 'multi' : 'param', text: text.slice(1, -1) };
    }),
  };
}

// Static before parameter before multi, segment by segment: the order in which routers that try
// routes one by one (Express) must be given them to prefer static segments, as find-my-way and
// Hono do on their own and as the table's matcher does.
const RANK = { static: 0, param: 1, multi: 2 } as const;
export function bySpecificity(a: TableRoute, b: TableRoute): number {
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
    const diff = RANK[a.segments[i]!.kind] - RANK[b.segments[i]!.kind];
    if (diff !== 0) return diff;
  }
  return b.segments.length - a.segments.length;
}

export type Syntax = 'express5' | 'express4' | 'colon';
export function pathOf(route: TableRoute, syntax: Syntax, prefix = ''): string {
  const parts = route.segments.map((segment) => {
    if (segment.kind === 'static') return segment.text;
    if (segment.kind === 'param') return `:${segment.text}`;
    return syntax === 'express5' ? `*${segment.text}` : '*';
  });
  return `${prefix}/${parts.join('/')}`;
}

const shipped = defaultLimits();
const HUGE = 1e9;
const raise = <T extends object>(limit: T): T =>
  Object.fromEntries(
    Object.entries(limit).map(([name, value]) => [
      name,
      typeof value === 'number' && !name.endsWith('Ms') ? HUGE : value,
    ]),
  ) as T;
/** Limits no run of the test reaches: every refusal is the policy's, none a limit's. */
export const unreachableLimits: LimitsConfig = {
  ...shipped,
  primary: {
    ...shipped.primary,
    callers: {
      ...shipped.primary.callers,
      anonymous: { limit: HUGE },
      user: { ...shipped.primary.callers.user, limit: HUGE },
    },
    resources: {
      search: raise(shipped.primary.resources.search),
      graphql: raise(shipped.primary.resources.graphql),
      lfs: raise(shipped.primary.resources.lfs),
    },
  },
  secondary: {
    ...shipped.secondary,
    concurrency: { ...shipped.secondary.concurrency, limit: HUGE },
    points: { ...shipped.secondary.points, rest: HUGE },
    cpu: { ...shipped.secondary.cpu, totalMs: HUGE },
    content: { perMinute: HUGE, perHour: HUGE },
  },
};

// Parameter values that name no static segment of the table; a multi-segment one spans two.
function paramValue(name: string, multi: boolean): string {
  if (multi) return name === 'ref' ? 'heads/main' : 'docs/a.md';
  if (name === 'owner' || name === 'org' || name === 'template_owner') return 'acme';
  if (name === 'repo' || name === 'template_repo') return 'app';
  if (name === 'username') return 'octocat';
  return /(number|_id|id)$/.test(name) ? '42' : `v-${name.length}`;
}

/** How one request spells its endpoint's path. */
export interface Spelling {
  /** Per static segment (cycled): as listed, upper case, or capitalized. */
  readonly letterCase: readonly ('as-listed' | 'upper' | 'capital')[];
  /** The segment (index, cycled) whose first letter is percent-encoded, or null. */
  readonly encodeLetter: number | null;
  /**
   * The static segment (index, cycled) whose first `k` or `s` is sent as the character a router's
   * case folding reads as that letter (U+212A KELVIN SIGN, U+017F LONG S), percent-encoded, or null.
   */
  readonly lookalike: number | null;
  /** Before which segments (index, cycled) the slash is doubled; 0 doubles the leading one. */
  readonly doubleSlash: readonly number[];
  readonly trailingSlash: boolean;
  /** `app.git` for `{repo}`. */
  readonly gitSuffix: boolean;
  /** How `/api` is spelled on the servers that have the API there. */
  readonly prefix: string;
}

const PREFIXES = ['/api', '/API', '/Api', '//api', '/%61pi', '/aPI/'];

const LOOKALIKES: Readonly<Record<string, string>> = { k: '%E2%84%AA', s: '%C5%BF' };
const lookalikeOf = (text: string) => text.replace(/[ks]/i, (letter) => LOOKALIKES[letter.toLowerCase()]!);

const encodeFirstLetter = (text: string) =>
  text.replace(/[A-Za-z]/, (letter) => `%${letter.charCodeAt(0).toString(16).toUpperCase()}`);

export function spell(route: TableRoute, spelling: Spelling, prefix: string): string {
  let statics = 0;
  const parts: string[] = route.segments.map((segment) => {
    if (segment.kind !== 'static') {
      const value = paramValue(segment.text, segment.kind === 'multi');
      return segment.text === 'repo' && spelling.gitSuffix ? `${value}.git` : value;
    }
    const chosen = spelling.letterCase[statics++ % Math.max(1, spelling.letterCase.length)] ?? 'as-listed';
    if (chosen === 'upper') return segment.text.toUpperCase();
    if (chosen === 'capital') return segment.text.charAt(0).toUpperCase() + segment.text.slice(1);
    return segment.text;
  });
  const count = parts.length;
  const staticAt = route.segments.flatMap((segment, i) => (segment.kind === 'static' ? [i] : []));
  if (spelling.lookalike !== null && staticAt.length > 0) {
    const at = staticAt[spelling.lookalike % staticAt.length]!;
    parts[at] = lookalikeOf(parts[at]!);
  }
  if (spelling.encodeLetter !== null && count > 0) {
    const at = spelling.encodeLetter % count;
    parts[at] = encodeFirstLetter(parts[at]!);
  }
  const doubled = new Set(spelling.doubleSlash.map((at) => at % Math.max(1, count)));
  let path = parts.map((part, i) => (doubled.has(i) ? `//${part}` : `/${part}`)).join('');
  if (spelling.trailingSlash) path += '/';
  return (prefix === '' ? '' : spelling.prefix) + (path === '' ? '/' : path);
}

// Deterministic: endpoint i gets spelling kind i % 6, mode and caller alternating over i.
export function fixedSpelling(i: number): Spelling {
  const none: Spelling = {
    letterCase: [],
    encodeLetter: null,
    lookalike: null,
    doubleSlash: [],
    trailingSlash: false,
    gitSuffix: false,
    prefix: PREFIXES[i % PREFIXES.length]!,
  };
  switch (i % 6) {
    case 0:
      return { ...none, letterCase: ['upper'] };
    case 1:
      return { ...none, letterCase: ['capital', 'as-listed'], trailingSlash: true };
    case 2:
      return { ...none, doubleSlash: [2], letterCase: ['as-listed', 'upper'] };
    case 3:
      return { ...none, doubleSlash: [0] };
    case 4:
      return i % 12 === 4 ? { ...none, encodeLetter: 0 } : { ...none, lookalike: i, letterCase: ['upper'] };
    default:
      return {
        ...none,
        gitSuffix: true,
        trailingSlash: true,
        letterCase: ['as-listed', 'as-listed', 'capital'],
      };
  }
}

export const spellingArbitrary: fc.Arbitrary<Spelling> = fc.record({
  letterCase: fc.array(fc.constantFrom('as-listed', 'upper', 'capital'), { maxLength: 4 }),
  encodeLetter: fc.option(fc.nat(8), { nil: null }),
  lookalike: fc.option(fc.nat(8), { nil: null }),
  doubleSlash: fc.array(fc.nat(8), { maxLength: 2 }),
  trailingSlash: fc.boolean(),
  gitSuffix: fc.boolean(),
  prefix: fc.constantFrom(...PREFIXES),
});
