/** Each route's parameters worked out at compile time, so the fast path reads only their segments. */
// Hot path: readParams runs on every matched plain request; the bench guards it.

import { newParams } from './params-object.js';
import type { TemplateSegment } from './parse-template.js';

/** Where a template's parameters sit: one entry per parameter, in template order. */
export interface ParamPlan {
  readonly names: readonly string[];
  /** Segment position of each parameter. */
  readonly positions: readonly number[];
  /** True for parameters whose trailing `.git` is stripped (the route's `stripGitSuffix`). */
  readonly stripGit: readonly boolean[];
  /** True when the last parameter is multi-segment: it runs to the path's end. */
  readonly multi: boolean;
  /**
   * The same, flattened for readParams: per parameter its name, its position, then 1 to strip
   * `.git` (0 not), then 2 for the multi-segment one: one array to read per match instead of three.
   */
  readonly steps: readonly (string | number)[];
}

/**
 * The plan of a parsed template.
 * @example
 * import { planParams } from './param-plan.js';
 * import { parseTemplate } from './parse-template.js';
 * planParams(parseTemplate('/repos/{owner}/{repo}/contents/{path}', 'path', [], ['repo']));
 * // { names: ['owner', 'repo', 'path'], positions: [1, 2, 4], stripGit: [false, true, false], multi: true,
 * //   steps: ['owner', 1, 0, 'repo', 2, 1, 'path', 4, 2] }
 */
export function planParams(template: readonly TemplateSegment[]): ParamPlan {
  const names: string[] = [];
  const positions: number[] = [];
  const stripGit: boolean[] = [];
  let multi = false;
  template.forEach((segment, position) => {
    if (segment.kind === 'static') return;
    names.push(segment.name);
    positions.push(position);
    stripGit.push(segment.kind === 'param' && segment.stripGit);
    multi = segment.kind === 'multi';
  });
  const steps: (string | number)[] = [];
  for (let p = 0; p < names.length; p++)
    steps.push(names[p]!, positions[p]!, multi && p === names.length - 1 ? 2 : stripGit[p] ? 1 : 0);
  return { names, positions, stripGit, multi, steps };
}

/**
 * The parameters of a plain path (one scanPath accepted: no `%`, so raw is decoded and no value
 * holds an encoded slash) from the segment offsets `bounds` of its `count` segments: each value one
 * slice of the target, the multi-segment one running to the path's end, `.git` stripped where the
 * route asks. Returns null for such a value of exactly `.git`, which the careful path turns into its bad_path.
 * @example
 * import { planParams, readParams } from './param-plan.js';
 * import { parseTemplate } from './parse-template.js';
 * import { scanPath, scratch } from './scan-path.js';
 * const count = scanPath('/repos/o/app.git');
 * readParams(planParams(parseTemplate('/repos/{owner}/{repo}', undefined, [], ['repo'])), '/repos/o/app.git', scratch.bounds, count);
 * // { owner: 'o', repo: 'app' } (inheriting nothing)
 */
export function readParams(
  plan: ParamPlan,
  target: string,
  bounds: Int32Array,
  count: number,
): Record<string, string> | null {
  return readParamsAt(plan.steps, 0, plan.steps.length, target, bounds, count);
}

/**
 * readParams over a plan's `steps` copied into a bigger array (the flat automaton keeps every
 * route's steps beside its edge tables): the steps are `cells[from]` to `cells[to]`.
 * @example
 * import { planParams, readParamsAt } from './param-plan.js';
 * import { parseTemplate } from './parse-template.js';
 * import { scanPath, scratch } from './scan-path.js';
 * const cells = ['pad', ...planParams(parseTemplate('/users/{username}')).steps];
 * readParamsAt(cells, 1, cells.length, '/users/octo', scratch.bounds, scanPath('/users/octo'));
 * // { username: 'octo' } (inheriting nothing)
 */
export function readParamsAt(
  cells: readonly unknown[],
  from: number,
  to: number,
  target: string,
  bounds: Int32Array,
  count: number,
): Record<string, string> | null {
  // Inherits nothing: parameter names come from tables, and a `__proto__` name must stay a plain key.
  const params = newParams((to - from) / 3);
  for (let s = from; s < to; s += 3) {
    const position = cells[s + 1] as number;
    const how = cells[s + 2] as number;
    const start = bounds[position]!;
    let end = how === 2 ? bounds[count]! - 1 : bounds[position + 1]! - 1;
    // `app.git` names the repository `app`, as the service's git URLs do: cut before slicing.
    if (how === 1 && target.charCodeAt(end - 1) === 116 /* 't' */ && target.startsWith('.git', end - 4)) {
      if (end - start === 4) return null;
      end -= 4;
    }
    params[cells[s] as string] = target.slice(start, end);
  }
  return params;
}
