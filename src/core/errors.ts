/** The one exception class tollgate throws, for misuse and infrastructure faults only. */

/** Stable codes of thrown errors; identify errors by `code`, not `instanceof`. */
export type TollgateErrorCode =
  | 'TOLLGATE_INVALID_OPTION'
  | 'TOLLGATE_INVALID_TABLE'
  | 'TOLLGATE_INVALID_TOKEN'
  | 'TOLLGATE_INVALID_INPUT'
  | 'TOLLGATE_STORE_UNAVAILABLE';

/**
 * Thrown for misuse (a bad option, table or token file) and infrastructure faults. Decisions and
 * verdicts never throw: a deny is a value.
 * @example
 * import { createPolicy, isTollgateError } from 'tollgate';
 * import { loadTables } from 'tollgate/tables';
 * try {
 *   createPolicy(loadTables(['my-overlay.yaml']));
 * } catch (error) {
 *   if (isTollgateError(error) && error.code === 'TOLLGATE_INVALID_TABLE') console.error(error.details.join('\n'));
 * }
 */
export class TollgateError extends Error {
  readonly code: TollgateErrorCode;
  /** Each problem on its own line (`file:line:col: message (hint)`), when there are several. */
  readonly details: readonly string[];

  constructor(
    code: TollgateErrorCode,
    message: string,
    options: { cause?: unknown; details?: readonly string[] } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TollgateError';
    this.code = code;
    this.details = options.details ?? [];
  }
}

/**
 * True when `value` is a TollgateError, across bundles (checks the code, not the prototype).
 * @example
 * import { createLimiter, isTollgateError } from 'tollgate';
 * try {
 *   createLimiter({ clock: 42 as never });
 * } catch (error) {
 *   if (isTollgateError(error)) error.code; // 'TOLLGATE_INVALID_OPTION'
 * }
 */
export function isTollgateError(value: unknown): value is TollgateError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'string' &&
    (value as { code: string }).code.startsWith('TOLLGATE_')
  );
}
