/** Problem lists on stderr, at most 20 lines for one file: past that, one line says how many more. */

/**
 * The most problem lines printed for one file. Past it a file is usually not what it was taken for
 * (a program, a page of prose given as YAML), and each later line repeats the first; the compilers
 * that cap their error lists stop at about as many (clang's -ferror-limit is 20).
 */
export const MAX_PROBLEMS_PER_FILE = 20;

/** One problem line and the file it is about. */
export interface ProblemLine {
  readonly file: string;
  readonly text: string;
}

/**
 * The lines to print: each file's first `limit` lines, then `file: (and N more problems)`. Lines
 * keep their order (the files in the order they first appear).
 * @example
 * import { capPerFile } from './problem-list.js';
 * const lines = ['a.yaml:1:1: x', 'a.yaml:2:1: y', 'a.yaml:3:1: z'].map((text) => ({ file: 'a.yaml', text }));
 * capPerFile(lines, 2); // ['a.yaml:1:1: x', 'a.yaml:2:1: y', 'a.yaml: (and 1 more problem)']
 */
export function capPerFile(lines: readonly ProblemLine[], limit = MAX_PROBLEMS_PER_FILE): string[] {
  const counts = new Map<string, number>();
  for (const { file } of lines) counts.set(file, (counts.get(file) ?? 0) + 1);
  const shown = new Map<string, number>();
  const out: string[] = [];
  for (const { file, text } of lines) {
    const seen = (shown.get(file) ?? 0) + 1;
    shown.set(file, seen);
    if (seen <= limit) out.push(text);
    // After the file's last shown line: the count of the rest, once.
    if (seen === limit && counts.get(file)! > limit) {
      const more = counts.get(file)! - limit;
      out.push(`${file}: (and ${more} more problem${more === 1 ? '' : 's'})`);
    }
  }
  return out;
}

/**
 * The file a formatted problem line is about: `file:line:col: message` or `file: message`.
 * @example
 * import { fileOfLine } from './problem-list.js';
 * fileOfLine('data/permissions.yaml:12:7: unknown permission `isues`'); // 'data/permissions.yaml'
 */
export function fileOfLine(line: string): string {
  return /^(.*?):\d+:\d+: /.exec(line)?.[1] ?? /^(.*?): /.exec(line)?.[1] ?? '';
}
