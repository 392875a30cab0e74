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
}

/**
 * The plan of a parsed template.
 * @example
 * import { planParams } from './param-plan.js';
 * import { parseTemplate } from './parse-template.js';
 * planParams(parseTemplate('/repos/{owner}/{repo}/contents/{path}', 'path', [], ['repo']));
 * // { names: ['owner', 'repo', 'path'], positions: [1, 2, 4], stripGit: [false, true, false], multi: true }
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
  return { names, positions, stripGit, multi };
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
  // Inherits nothing: parameter names come from tables, and a `__proto__` name must stay a plain key.
  const params = newParams();
  const { names, positions, stripGit } = plan;
  const last = names.length - 1;
  for (let p = 0; p <= last; p++) {
    const position = positions[p]!;
    const start = bounds[position]!;
    let end = p === last && plan.multi ? bounds[count]! - 1 : bounds[position + 1]! - 1;
    // `app.git` names the repository `app`, as the service's git URLs do: cut before slicing.
    if (stripGit[p] && target.charCodeAt(end - 1) === 116 /* 't' */ && target.startsWith('.git', end - 4)) {
      if (end - start === 4) return null;
      end -= 4;
    }
    params[names[p]!] = target.slice(start, end);
  }
  return params;
}
