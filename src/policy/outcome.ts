/** What the checks after matching conclude; `authorize` turns an Outcome into a Decision. */
import type { Addition, ReasonCode, Requirement, ScopeRequirement } from './types.js';

/** A decision without the request's own facts (endpoint, params, headers). */
export interface Outcome {
  readonly allowed: boolean;
  readonly status: number;
  readonly reason: ReasonCode;
  readonly message: string;
  readonly missing?: Requirement | ScopeRequirement;
  readonly addition?: Addition;
  readonly certain?: boolean;
}

/** The addition of a decision that no added permission or scope would change. */
export const NOTHING: Addition = Object.freeze({ kind: 'none' });
