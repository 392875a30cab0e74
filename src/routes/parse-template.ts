/** Parses a route template (`/repos/{owner}/{repo}/contents/{path}`) into positional segments. */
import { TollgateError } from '../core/errors.js';

/** One position of a template: a literal segment, a one-segment parameter, or a trailing multi-segment one. */
export type TemplateSegment =
  | { readonly kind: 'static'; readonly text: string }
  | {
      readonly kind: 'param';
      readonly name: string;
      readonly encodedSlash: boolean;
      /** A trailing `.git` is cut from the value (`app.git` names the repository `app`). */
      readonly stripGit: boolean;
    }
  | { readonly kind: 'multi'; readonly name: string };

// A static segment is compared raw, so it must be spelled the way a client sends it: RFC 3986 pchar
// without percent-encoding (a `%` would make the raw comparison depend on the client's escaping).
const STATIC = /^[A-Za-z0-9\-._~!$&'()*+,;=:@]+$/;
const PARAM = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

function invalid(template: string, why: string): TollgateError {
  return new TollgateError('TOLLGATE_INVALID_TABLE', `route table: template \`${template}\` ${why}`);
}

/**
 * Splits a template into its segments and checks it: leading `/`, no empty or dot segments, each
 * segment either literal or exactly `{name}`, parameter names unique, `multiSegment` naming the last
 * segment's parameter, `encodedSlash` and `stripGitSuffix` naming parameters of the template.
 * Throws TollgateError `TOLLGATE_INVALID_TABLE` otherwise.
 * @example
 * import { parseTemplate } from './parse-template.js';
 * parseTemplate('/repos/{owner}/{repo}/readme/{dir}', 'dir');
 * // [{ kind: 'static', text: 'repos' }, { kind: 'param', name: 'owner', encodedSlash: false, stripGit: false },
 * //  { kind: 'param', name: 'repo', encodedSlash: false, stripGit: false }, { kind: 'static', text: 'readme' },
 * //  { kind: 'multi', name: 'dir' }]
 */
export function parseTemplate(
  template: string,
  multiSegment?: string,
  encodedSlash: readonly string[] = [],
  stripGitSuffix: readonly string[] = [],
): TemplateSegment[] {
  if (!template.startsWith('/')) throw invalid(template, 'does not start with `/`');
  if (template === '/') {
    if (multiSegment !== undefined) throw invalid(template, `has no parameter \`${multiSegment}\``);
    return [];
  }
  const parts = template.slice(1).split('/');
  const names = new Set<string>();
  const segments: TemplateSegment[] = [];
  for (const [i, part] of parts.entries()) {
    const param = PARAM.exec(part);
    if (param === null) {
      if (part === '') throw invalid(template, 'has an empty segment');
      if (part === '.' || part === '..') throw invalid(template, `has a dot segment \`${part}\``);
      if (!STATIC.test(part)) throw invalid(template, `has a malformed segment \`${part}\``);
      segments.push({ kind: 'static', text: part });
      continue;
    }
    const name = param[1]!;
    if (names.has(name)) throw invalid(template, `repeats the parameter \`${name}\``);
    names.add(name);
    if (name === multiSegment) {
      if (i !== parts.length - 1) throw invalid(template, `has the multi-segment \`${name}\` before its end`);
      segments.push({ kind: 'multi', name });
    } else {
      segments.push({
        kind: 'param',
        name,
        encodedSlash: encodedSlash.includes(name),
        stripGit: stripGitSuffix.includes(name),
      });
    }
  }
  if (multiSegment !== undefined && !names.has(multiSegment)) {
    throw invalid(template, `has no parameter \`${multiSegment}\` (named by multiSegment)`);
  }
  for (const name of encodedSlash) {
    if (!names.has(name)) throw invalid(template, `has no parameter \`${name}\` (named by encodedSlash)`);
  }
  for (const name of stripGitSuffix) {
    if (!names.has(name) || name === multiSegment)
      throw invalid(template, `has no one-segment parameter \`${name}\` (named by stripGitSuffix)`);
  }
  return segments;
}
