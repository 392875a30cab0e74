/** Window modes chosen in code, over those of the table. */
import { TollgateError } from '../core/errors.js';
import type { LimitsConfig, WindowMode } from './limits-config.js';
import { WINDOWED_RULES, type WindowedRule } from './windowed-rules.js';

/** The modes accepted; `strict` (0.1's name) is read as `sliding`. */
const MODES: readonly string[] = ['sliding', 'bucket', 'strict'];

/**
 * `config` with the window mode of some rules replaced. Throws TollgateError
 * `TOLLGATE_INVALID_OPTION`, naming the valid rules or modes, for anything else.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { withWindowModes } from './with-window-modes.js';
 * withWindowModes(defaultLimits(), { content_per_hour: 'bucket' }).secondary.windowModes.content_per_hour; // 'bucket'
 */
export function withWindowModes(
  config: LimitsConfig,
  modes: Readonly<Partial<Record<WindowedRule, WindowMode | 'strict'>>>,
): LimitsConfig {
  if (modes === null || typeof modes !== 'object' || Array.isArray(modes))
    throw new TollgateError(
      'TOLLGATE_INVALID_OPTION',
      'limiter: `windowModes` must be an object of `rule: mode`',
    );
  for (const [rule, mode] of Object.entries(modes)) {
    if (!(WINDOWED_RULES as readonly string[]).includes(rule))
      throw new TollgateError(
        'TOLLGATE_INVALID_OPTION',
        `limiter: \`windowModes\` names no rule \`${rule}\`; valid rules: ${WINDOWED_RULES.join(', ')}`,
      );
    if (!MODES.includes(mode as string))
      throw new TollgateError(
        'TOLLGATE_INVALID_OPTION',
        `limiter: \`windowModes.${rule}\` is \`${String(mode)}\`; valid modes: ${MODES.join(', ')}`,
      );
  }
  const chosen: Partial<Record<WindowedRule, WindowMode>> = {};
  for (const [rule, mode] of Object.entries(modes))
    chosen[rule as WindowedRule] = mode === 'bucket' ? 'bucket' : 'sliding';
  return {
    ...config,
    secondary: { ...config.secondary, windowModes: { ...config.secondary.windowModes, ...chosen } },
  };
}
