/** Control characters taken from input, made visible: a file name or token value never drives the terminal. */

/**
 * Every C0 and C1 control character (and DEL) but tab as `\xNN` (newlines too: one input value
 * stays on one line).
 * @example
 * import { escapeControl } from './escape-control.js';
 * escapeControl('bad\x1b[31mname\n'); // 'bad\\x1b[31mname\\x0a'
 */
export function escapeControl(text: string): string {
  return text.replace(
    /[\x00-\x08\x0a-\x1f\x7f-\x9f]/g,
    (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}
