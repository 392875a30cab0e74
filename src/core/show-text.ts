/** Input echoed in a one-line message: cut, and with nothing that could break the line or the terminal. */

const CONTROL = /[\x00-\x1f\x7f]/g;
const SURROGATE = /[\ud800-\udfff]/g;

/**
 * A piece of input fit for a one-line message inside backticks: controls shown percent-encoded,
 * lone surrogates as `\u` escapes (e.g. `\ud800`), anything past 80 characters cut to `...`.
 * @example
 * import { showText } from './show-text.js';
 * showText('a\nb'); // 'a%0Ab'
 * showText('x'.repeat(100)).length; // 80
 */
export function showText(text: string): string {
  const cut = text.length > 80 ? `${text.slice(0, 77)}...` : text;
  return cut
    .replace(CONTROL, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
    .replace(SURROGATE, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}
