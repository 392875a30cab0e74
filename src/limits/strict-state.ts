/** Where each windowed rule's strict state sits in an identity's strict row, and whether a config needs one. */
import type { LimitsConfig } from './limits-config.js';
import { STRICT_RULE_WIDTH, WINDOWED_RULES, type WindowedRule } from './strict-window.js';

/**
 * The offset of `rule`'s state in the strict row.
 * @example
 * import { strictBase } from './strict-state.js';
 * strictBase('content_per_minute'); // 16
 */
export function strictBase(rule: WindowedRule): number {
  return WINDOWED_RULES.indexOf(rule) * STRICT_RULE_WIDTH;
}

const memo = new WeakMap<LimitsConfig, boolean>();

/**
 * True when any rule of `config` runs in the strict window mode: stores then keep a strict row
 * (STRICT_WIDTH numbers) per identity beside its state row.
 * @example
 * import { defaultLimits, hasStrictRules } from 'tollgate/limits';
 * hasStrictRules(defaultLimits()); // false
 */
export function hasStrictRules(config: LimitsConfig): boolean {
  let strict = memo.get(config);
  if (strict === undefined) {
    strict = WINDOWED_RULES.some((rule) => config.secondary.windowModes[rule] === 'strict');
    memo.set(config, strict);
  }
  return strict;
}
