/** Fine-grained permissions as one small integer per token and per requirement alternative, for catalogs of up to 15 permissions. */
// Hot path: meetsMasks runs for every matched request of a fine-grained token; the bench guards it.
import type { PermissionAlternative } from './permission-denial.js';

/**
 * The most permissions a catalog may have for the masks: bit `i` says "at least read" of the
 * permission of catalog index `i`, bit `i + 15` says "write", all within a small integer.
 */
export const MASKED_PERMISSIONS = 15;
// A bit no token holds: an alternative naming a permission the catalog lacks can never be met.
const UNHOLDABLE = 1 << 30;

/**
 * A token's grant as a mask, from its level codes per catalog index (0 none, 1 read, 2 write).
 * @example
 * import { grantMask } from './permission-masks.js';
 * grantMask(Uint8Array.of(1, 0, 2)); // 0b100_0000_0000_0000_0101: read of 0, read and write of 2
 */
export function grantMask(levels: Uint8Array): number {
  let mask = 0;
  for (let i = 0; i < levels.length && i < MASKED_PERMISSIONS; i++) {
    if (levels[i]! >= 1) mask |= 1 << i;
    if (levels[i]! >= 2) mask |= 1 << (i + MASKED_PERMISSIONS);
  }
  return mask;
}

/**
 * What one alternative needs, as a mask: met by a grant `g` exactly when `(g & need) === need`.
 * `size` is the catalog's: a slug index at or past it names a permission no token can hold.
 * @example
 * import { needMask } from './permission-masks.js';
 * needMask({ slugs: ['issues'], levels: ['write'], indexes: Int32Array.of(2), codes: Uint8Array.of(2) }, 14);
 * // (1 << 2) | (1 << 17)
 */
export function needMask(alternative: PermissionAlternative, size: number): number {
  let mask = 0;
  const { indexes, codes } = alternative;
  for (let i = 0; i < indexes.length; i++) {
    const index = indexes[i]!;
    if (index >= size || index >= MASKED_PERMISSIONS) return UNHOLDABLE;
    mask |= 1 << index;
    if (codes[i]! >= 2) mask |= 1 << (index + MASKED_PERMISSIONS);
  }
  return mask;
}

/**
 * Whether a grant mask meets one of the alternatives' need masks: the same answer as meetsLevels
 * on the level codes the masks were made from, in one `&` per alternative.
 * @example
 * import { meetsMasks } from './permission-masks.js';
 * meetsMasks([0b10, 0b1], 0b11); // true
 * meetsMasks([0b100], 0b11); // false
 */
export function meetsMasks(needs: readonly number[], grant: number): boolean {
  for (let a = 0; a < needs.length; a++) if ((grant & needs[a]!) === needs[a]) return true;
  return false;
}

/**
 * Whether the level codes per catalog index meet one of the alternatives: each of one
 * alternative's slugs granted at its level or above. Any catalog size.
 * @example
 * import { meetsLevels } from './permission-masks.js';
 * const alternative = { slugs: ['issues'], levels: ['read' as const], indexes: Int32Array.of(0), codes: Uint8Array.of(1) };
 * meetsLevels([alternative], Uint8Array.of(2)); // true: write covers read
 */
export function meetsLevels(alternatives: readonly PermissionAlternative[], levels: Uint8Array): boolean {
  outer: for (let a = 0; a < alternatives.length; a++) {
    const { indexes, codes } = alternatives[a]!;
    for (let i = 0; i < indexes.length; i++) if (!(levels[indexes[i]!]! >= codes[i]!)) continue outer;
    return true;
  }
  return false;
}
