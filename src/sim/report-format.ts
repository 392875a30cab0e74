/** Small text helpers the text and HTML reports share. */

/**
 * Text made safe inside HTML and SVG, attribute values included.
 * @example
 * import { escapeHtml } from './report-format.js';
 * escapeHtml('<a & "b">'); // '&lt;a &amp; &quot;b&quot;&gt;'
 */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

/**
 * A figure for a person: thousands separated, at most two decimals.
 * @example
 * import { number } from './report-format.js';
 * number(4842.123); // '4,842.12'
 */
export function number(value: number): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/**
 * A time for a person: `40 s`, `12 min 5 s`, `3 h 20 min`, `2 d 4 h`.
 * @example
 * import { duration } from './report-format.js';
 * duration(725); // '12 min 5 s'
 */
export function duration(seconds: number): string {
  const whole = Math.round(seconds);
  // Never `0 s` for a time that is not 0: a refusal's short wait reads `0.04 s`.
  if (seconds < 1) return `${Number(seconds.toPrecision(2))} s`;
  if (whole < 60) return `${Number(seconds.toFixed(seconds < 10 ? 1 : 0))} s`;
  const parts: [number, string][] =
    whole < 3600
      ? [
          [Math.floor(whole / 60), 'min'],
          [whole % 60, 's'],
        ]
      : whole < 86_400
        ? [
            [Math.floor(whole / 3600), 'h'],
            [Math.floor((whole % 3600) / 60), 'min'],
          ]
        : [
            [Math.floor(whole / 86_400), 'd'],
            [Math.floor((whole % 86_400) / 3600), 'h'],
          ];
  return parts
    .filter(([n], i) => i === 0 || n > 0)
    .map(([n, unit]) => `${n.toLocaleString('en-US')} ${unit}`)
    .join(' ');
}

/**
 * The note on a caller's policy refusals, the same in the text and HTML reports: those refused
 * only because the seeds do not show what the endpoint needs are told apart, as tollgate's choice.
 * @example
 * import { policyNote } from './report-format.js';
 * policyNote(10, 10); // '10 refused by the policy: the seeds do not show what the endpoint needs for this token, and tollgate refuses what they do not show (`unshownScopes: \'deny\'`)'
 */
export function policyNote(denied: number, unshown: number): string {
  const choice =
    "the seeds do not show what the endpoint needs for this token, and tollgate refuses what they do not show (`unshownScopes: 'deny'`)";
  if (unshown === 0) return `${number(denied)} refused by the policy (the token may not call the endpoint)`;
  if (unshown === denied) return `${number(denied)} refused by the policy: ${choice}`;
  return `${number(denied)} refused by the policy (the token may not call the endpoint; for ${number(unshown)} of them ${choice})`;
}

/**
 * The line that says a scenario counts windowed rules as buckets, which admit up to twice the
 * seed's "at most" within one window; null in the default (sliding) modes.
 * @example
 * import { bucketNote } from './report-format.js';
 * bucketNote(['content_per_minute']); // 'window modes: content_per_minute counted as buckets, which admit up to twice the seed\'s "at most" within one window (the default, sliding, never admits more)'
 */
export function bucketNote(rules: readonly string[]): string | null {
  if (rules.length === 0) return null;
  return `window modes: ${rules.join(', ')} counted as buckets, which admit up to twice the seed's "at most" within one window (the default, sliding, never admits more)`;
}
