/** Reads the parameters of a matched template out of the decoded path segments, by position. */
// Runs for matches on the careful path (see match-carefully.ts); plain paths use readParams.

import { newParams } from './params-object.js';
import type { TemplateSegment } from './parse-template.js';
import { showSegment } from './split-path.js';

/** Decoded parameters, or why the matched path is still a bad path. */
export type ExtractedParams =
  | { readonly kind: 'params'; readonly params: Readonly<Record<string, string>> }
  | { readonly kind: 'bad_path'; readonly message: string };

// A value that carries a decoded `/` is path-like: a backend that decodes before routing would see
// `a/../b` as traversal, so its pieces get the same checks as raw segments.
function hasBadPiece(value: string): boolean {
  for (const piece of value.split('/')) {
    if (piece === '' || piece === '.' || piece === '..') return true;
  }
  return false;
}

function bad(message: string): ExtractedParams {
  return { kind: 'bad_path', message };
}

/**
 * Takes each parameter's value from its position in the decoded segments (a multi-segment
 * parameter takes the remaining segments joined by `/`), then applies what only the template
 * knows: `%2F` only inside `encodedSlash` or multi-segment parameters, no dot or empty pieces
 * once decoded, and `.git` stripped where the route asks. Segments are assumed to have passed splitPath.
 * @example
 * import { extractParams } from './extract-params.js';
 * import { parseTemplate } from './parse-template.js';
 * extractParams(parseTemplate('/repos/{owner}/{repo}/contents/{path}', 'path', [], ['repo']),
 *   ['repos', 'Octo', 'app.git', 'contents', 'docs', 'a%20b.md'], ['repos', 'Octo', 'app.git', 'contents', 'docs', 'a b.md']);
 * // { kind: 'params', params: { owner: 'Octo', repo: 'app', path: 'docs/a b.md' } }
 */
export function extractParams(
  template: readonly TemplateSegment[],
  raw: readonly string[],
  decoded: readonly string[],
): ExtractedParams {
  // Inherits nothing: parameter names come from tables, and a `__proto__` name must stay a plain key.
  const params = newParams();
  // `decoded === raw` means the path has no `%` at all, so no value can hold a decoded slash.
  const encoded = decoded !== raw;
  for (let i = 0; i < template.length; i++) {
    const segment = template[i]!;
    if (segment.kind === 'static') continue;
    if (segment.kind === 'multi') {
      if (encoded) {
        for (let j = i; j < decoded.length; j++) {
          const piece = decoded[j]!;
          if (piece.includes('/') && hasBadPiece(piece)) {
            return bad(
              `path segment \`${showSegment(raw[j]!)}\` decodes to a dot or empty segment inside \`{${segment.name}}\``,
            );
          }
        }
      }
      params[segment.name] = i === decoded.length - 1 ? decoded[i]! : decoded.slice(i).join('/');
      break;
    }
    let value = decoded[i]!;
    if (encoded && value.includes('/')) {
      if (!segment.encodedSlash) {
        return bad(
          `path segment \`${showSegment(raw[i]!)}\` has an encoded slash, which \`{${segment.name}}\` does not allow`,
        );
      }
      if (hasBadPiece(value)) {
        return bad(
          `path segment \`${showSegment(raw[i]!)}\` decodes to a dot or empty segment inside \`{${segment.name}}\``,
        );
      }
    }
    // `app.git` names the repository `app`, as the service's git URLs do.
    if (segment.stripGit && value.endsWith('.git')) {
      value = value.slice(0, -4);
      if (value === '') {
        return bad(
          `path segment \`${showSegment(raw[i]!)}\` leaves \`{${segment.name}}\` empty once \`.git\` is stripped`,
        );
      }
    }
    params[segment.name] = value;
  }
  return { kind: 'params', params };
}
