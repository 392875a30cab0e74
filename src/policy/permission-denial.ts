/** The answer to a token that lacks a fine-grained permission: what is missing, and the smallest addition. */
import { NOTHING, type Outcome, outcome } from './outcome.js';
import type { Level } from './types.js';

/** One alternative of a fine-grained requirement as parallel arrays (no `for..in` per request). */
export interface PermissionAlternative {
  readonly slugs: readonly string[];
  readonly levels: readonly Level[];
  /** Each slug's catalog index (past the catalog's end for a slug it lacks) and level code. */
  readonly indexes: Int32Array;
  readonly codes: Uint8Array;
}

// Per alternative, what the token lacks; the message and the smallest addition in the same pass.
function missingPermissions(alternatives: readonly PermissionAlternative[], held: Uint8Array) {
  const missing: Record<string, Level>[] = [];
  let text = '';
  let smallest: Record<string, Level> | undefined;
  let smallestSize = Number.POSITIVE_INFINITY;
  for (let a = 0; a < alternatives.length; a++) {
    const { slugs, levels, indexes, codes } = alternatives[a]!;
    const lacking: Record<string, Level> = {};
    let size = 0;
    if (a > 0) text += ' or ';
    for (let i = 0; i < slugs.length; i++) {
      if (held[indexes[i]!]! >= codes[i]!) continue;
      lacking[slugs[i]!] = levels[i]!;
      text += `${size > 0 ? ' and ' : ''}\`${slugs[i]}=${levels[i]}\``;
      size++;
    }
    missing.push(lacking);
    if (size < smallestSize) {
      smallest = lacking;
      smallestSize = size;
    }
  }
  return { missing, smallest, text };
}

/**
 * The `insufficient_permission` outcome for a token holding the level codes `held` (per catalog
 * slug index) that meets none of `alternatives`.
 * @example
 * import { permissionDenial } from './permission-denial.js';
 * const alternative = { slugs: ['issues'], levels: ['read' as const], indexes: Int32Array.of(0), codes: Uint8Array.of(1) };
 * permissionDenial('`GET /x`', [alternative], new Uint8Array(1), true).message; // '`GET /x` needs permission `issues=read`'
 */
export function permissionDenial(
  quoted: string,
  alternatives: readonly PermissionAlternative[],
  held: Uint8Array,
  certain: boolean,
): Outcome {
  const { missing, smallest, text } = missingPermissions(alternatives, held);
  const needs = smallest === undefined ? 'a permission no token can hold' : `permission ${text}`;
  const addition =
    smallest === undefined ? NOTHING : ({ kind: 'permissions', permissions: smallest } as const);
  return outcome(
    false,
    403,
    'insufficient_permission',
    `${quoted} needs ${needs}`,
    certain,
    missing,
    addition,
  );
}
