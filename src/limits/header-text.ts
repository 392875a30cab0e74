/** The text of the rate-limit headers: numbers as strings without a new string per response. */
// Hot path: every verdict whose headers are read (every response); bench/limits.mjs guards its
// speed, and `npm run bench:instructions gate` (the http scenario's large limit) the large counts'.
import type { LimitsConfig, LimitsResource } from './limits-config.js';

/** Counts below this (limits, used, remaining, retry-after seconds) keep their text once made. */
const COUNT_TEXTS = 1 << 16;
const countTexts: (string | undefined)[] = new Array(COUNT_TEXTS).fill(undefined);

/** Texts of numbers, direct-mapped by their low bits: a slot keeps the last number that landed in it. */
interface TextTable {
  // INVARIANT: an empty slot's key is NaN, which equals no number, so it never answers (a -1 key
  // answered -1 with ''); test/limits/header-text.prop.test.ts checks it on a fresh module.
  readonly keys: Float64Array;
  readonly texts: string[];
  readonly mask: number;
}

const textTable = (size: number): TextTable => ({
  keys: new Float64Array(size).fill(Number.NaN),
  texts: new Array(size).fill(''),
  mask: size - 1,
});

function textIn(table: TextTable, n: number): string {
  const at = n & table.mask;
  if (table.keys[at] === n) return table.texts[at]!;
  const made = String(n);
  table.keys[at] = n;
  table.texts[at] = made;
  return made;
}

/**
 * Larger counts: a config's own large limit is the same number on every answer, and past V8's
 * small integers (the http bench's 10^12) making its text cost about 900 instructions each time.
 * A count that changes on every answer (the remaining of such a limit) takes a slot, and evicts
 * the limit's text when they share one (once in 64 answers).
 */
const largeCounts = textTable(64);

/**
 * The decimal text of a count, made once per value below 65,536 and shared afterwards; a larger
 * count's text is remembered in a small table.
 * @example
 * import { countText } from './header-text.js';
 * countText(4999); // '4999'
 * countText(1e12); // '1000000000000'
 */
export function countText(n: number): string {
  if (n >= 0 && n < COUNT_TEXTS && Number.isInteger(n)) {
    const text = countTexts[n];
    if (text !== undefined) return text;
    const made = String(n);
    countTexts[n] = made;
    return made;
  }
  return textIn(largeCounts, n);
}

/** Reset times (epoch seconds): many identities share a second. */
const resetSeconds = textTable(1024);

/**
 * The decimal text of an epoch-seconds reset time, remembered in a small table.
 * @example
 * import { resetText } from './header-text.js';
 * resetText(1_700_003_600); // '1700003600'
 */
export function resetText(seconds: number): string {
  return textIn(resetSeconds, seconds);
}

/** The header names tollgate ships (data/limits.yaml): most configs keep them. */
export const SHIPPED_HEADER_NAMES = {
  limit: 'x-ratelimit-limit',
  remaining: 'x-ratelimit-remaining',
  used: 'x-ratelimit-used',
  reset: 'x-ratelimit-reset',
  resource: 'x-ratelimit-resource',
} as const;

let lastNames: LimitsConfig['answers']['headers'] | undefined;
let lastShipped = false;

/**
 * The five `x-ratelimit-*` headers with the config's names: an object literal when the names are
 * the shipped ones (one allocation, a fixed shape), else built name by name.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { windowHeaders } from './header-text.js';
 * windowHeaders('core', '5000', '4999', '1', '1700003600', defaultLimits())['x-ratelimit-remaining']; // '4999'
 */
export function windowHeaders(
  resource: LimitsResource,
  limit: string,
  remaining: string,
  used: string,
  reset: string,
  config: LimitsConfig,
): Record<string, string> {
  return namedWindowHeaders(resource, limit, remaining, used, reset, config.answers.headers);
}

/** The header names of a limits config (its `answers.headers`). */
export type HeaderNames = LimitsConfig['answers']['headers'];

/**
 * Whether `names` are the shipped header names (the same text, whichever object holds them).
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { shipsHeaderNames } from './header-text.js';
 * shipsHeaderNames(defaultLimits().answers.headers); // true
 */
export function shipsHeaderNames(names: HeaderNames): boolean {
  if (names !== lastNames) {
    lastNames = names;
    lastShipped =
      names.limit === SHIPPED_HEADER_NAMES.limit &&
      names.remaining === SHIPPED_HEADER_NAMES.remaining &&
      names.used === SHIPPED_HEADER_NAMES.used &&
      names.reset === SHIPPED_HEADER_NAMES.reset &&
      names.resource === SHIPPED_HEADER_NAMES.resource;
  }
  return lastShipped;
}

/**
 * windowHeaders given the header names alone (all an admitted request's headers need); with
 * `first`, a new object with its headers, then the five (which win on a shared name, keeping its
 * place), as `joinHeaders(first, namedWindowHeaders(...))` gives, in one object and with the
 * window's names written as constants: the gate's answer to an admitted request. Cachegrind over
 * the http scenario's requests (`npm run bench:instructions gate`, three runs each, medians), per
 * request: the gate's check and settle 19,234 instructions with the generic join, 17,647 with
 * this; the node middleware 22,167 and 20,827. A loop copying an object of varying keys runs
 * through V8's megamorphic keyed loads and stores; a constant name does not.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { namedWindowHeaders } from './header-text.js';
 * const names = defaultLimits().answers.headers;
 * namedWindowHeaders('core', '5000', '4999', '1', '1700003600', names)['x-ratelimit-used']; // '1'
 * namedWindowHeaders('core', '5000', '4999', '1', '1700003600', names, { 'X-Accepted-Service-Permissions': 'issues=read' });
 * // { 'X-Accepted-Service-Permissions': 'issues=read', 'x-ratelimit-limit': '5000', ..., 'x-ratelimit-resource': 'core' }
 */
export function namedWindowHeaders(
  resource: LimitsResource,
  limit: string,
  remaining: string,
  used: string,
  reset: string,
  h: HeaderNames,
  first: Readonly<Record<string, string>> | null = null,
): Record<string, string> {
  const shipped = h === SHIPPED_HEADER_NAMES || shipsHeaderNames(h);
  // Alone with the shipped names: one literal, one allocation of a fixed shape.
  if (shipped && first === null)
    return {
      'x-ratelimit-limit': limit,
      'x-ratelimit-remaining': remaining,
      'x-ratelimit-used': used,
      'x-ratelimit-reset': reset,
      'x-ratelimit-resource': resource,
    };
  const headers: Record<string, string> = {};
  if (first !== null) for (const name in first) headers[name] = first[name]!;
  headers[shipped ? 'x-ratelimit-limit' : h.limit] = limit;
  headers[shipped ? 'x-ratelimit-remaining' : h.remaining] = remaining;
  headers[shipped ? 'x-ratelimit-used' : h.used] = used;
  headers[shipped ? 'x-ratelimit-reset' : h.reset] = reset;
  headers[shipped ? 'x-ratelimit-resource' : h.resource] = resource;
  return headers;
}
