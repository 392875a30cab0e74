/** What the checks after matching conclude; `authorize` turns an Outcome into a Decision. */
import type { Addition, ReasonCode, Requirement, ScopeRequirement } from './types.js';

/** A decision without the request's own facts (endpoint, params, headers). */
export interface Outcome {
  readonly allowed: boolean;
  readonly status: number;
  readonly reason: ReasonCode;
  readonly message: string;
  readonly missing: Requirement | ScopeRequirement;
  readonly addition: Addition;
  readonly certain: boolean;
}

/** The addition of a decision that no added permission or scope would change. */
export const NOTHING: Addition = Object.freeze({ kind: 'none' });
/** The `missing` of a decision that lacks nothing. */
export const NO_MISSING: readonly never[] = Object.freeze([]);

/**
 * An outcome with every field present, in one order: outcomes of one shape keep the hot path's
 * property reads monomorphic.
 * @example
 * import { outcome } from './outcome.js';
 * outcome(false, 401, 'authentication_required', '`GET /user/repository_invitations` requires authentication');
 * // { allowed: false, status: 401, reason: 'authentication_required',
 * //   message: '`GET /user/repository_invitations` requires authentication',
 * //   missing: [], addition: { kind: 'none' }, certain: true }
 */
export function outcome(
  allowed: boolean,
  status: number,
  reason: ReasonCode,
  message: string,
  certain = true,
  missing: Requirement | ScopeRequirement = NO_MISSING,
  addition: Addition = NOTHING,
): Outcome {
  return { allowed, status, reason, message, missing, addition, certain };
}
