// The table's endpoints as routes for other routers: each template split into segments, spelled
// in each framework's route syntax, in the order routers that try routes one by one need; and
// limits no spelling test reaches, so every refusal is the policy's.
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
