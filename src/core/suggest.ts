/** "Did you mean" suggestions for unknown names, shared by table validation and the CLI. */

function editDistance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0]!;
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j]!;
      previous[j] = Math.min(above + 1, previous[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length]!;
}

/**
 * The closest of `choices` to `value`, when it is close enough to be a likely typo.
 * @example
 * import { closest } from './suggest.js';
 * closest('isues', ['issues', 'contents']); // 'issues'
 */
export function closest(value: string, choices: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const choice of choices) {
    const distance = editDistance(value.toLowerCase(), choice.toLowerCase());
    if (distance < bestDistance) {
      best = choice;
      bestDistance = distance;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(value.length / 3)) ? best : undefined;
}

/** ` (did you mean `x`?)` or the empty string. */
export function didYouMean(value: string, choices: readonly string[]): string {
  const match = closest(value, choices);
  return match === undefined ? '' : ` (did you mean \`${match}\`?)`;
}
