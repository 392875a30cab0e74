// The README's code as the package tests read it: TypeScript blocks, server setups, curl lines, CLI commands.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './build-once.js';

const readme = () => readFileSync(join(projectRoot, 'README.md'), 'utf8');

/** The README's TypeScript blocks: all are type-checked, those marked `ts runnable` are also run. */
export function readmeBlocks(): { code: string; runnable: boolean }[] {
  return [...readme().matchAll(/^```ts( runnable)?\n([\s\S]*?)^```$/gm)].map((match) => ({
    code: match[2]!,
    runnable: match[1] !== undefined,
  }));
}

/** The server setups of "In front of a server", by the example file each one is the whole of. */
export const SERVER_SETUPS = {
  node: '// node:http',
  express: '// Express 5',
  fastify: '// Fastify 5',
  hono: '// Hono on @hono/node-server',
} as const;

export function serverSetup(name: keyof typeof SERVER_SETUPS): string {
  const found = readmeBlocks().filter((block) => block.code.startsWith(SERVER_SETUPS[name]));
  if (found.length !== 1) throw new Error(`README: ${found.length} blocks start with ${SERVER_SETUPS[name]}`);
  return found[0]!.code;
}

/** One README curl line: its arguments (quotes removed) and the status its comment promises. */
export interface CurlLine {
  readonly line: string;
  readonly args: readonly string[];
  readonly status: number;
}

/** The curl lines printed beside the server setups: `curl ... URL   # 200: ...`. */
export function curlLines(): CurlLine[] {
  return readme()
    .split('\n')
    .filter((line) => line.startsWith('curl '))
    .map((line) => {
      const [command, comment] = line.split(/\s+#\s+/, 2);
      const args = [...command!.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!).slice(1);
      const status = Number(/^(\d{3})\b/.exec(comment ?? '')?.[1]);
      if (!Number.isInteger(status)) throw new Error(`README: no status in the comment of \`${line}\``);
      return { line, args, status };
    });
}

/** The README's CLI runs (`$ tollgate ...`) and the first line of output it shows under each. */
export function cliRuns(): { args: string[]; firstLine: string }[] {
  const lines = readme().split('\n');
  return lines.flatMap((line, i) =>
    line.startsWith('$ tollgate ')
      ? [{ args: line.slice('$ tollgate '.length).trim().split(/\s+/), firstLine: lines[i + 1] ?? '' }]
      : [],
  );
}

/**
 * The README's `$ tollgate simulate ...` runs, each with every output line shown under it (up to the
 * next `$` line or the block's end): what the packed-tarball test expects the command to print.
 */
export function simulateRuns(): { args: string[]; shown: string[] }[] {
  const lines = readme().split('\n');
  return lines.flatMap((line, i) => {
    if (!line.startsWith('$ tollgate simulate ')) return [];
    const shown: string[] = [];
    for (let j = i + 1; j < lines.length && !lines[j]!.startsWith('$ ') && !lines[j]!.startsWith('```'); j++)
      shown.push(lines[j]!);
    return [{ args: line.slice('$ tollgate '.length).trim().split(/\s+/), shown }];
  });
}

/**
 * The block verbatim, then a check for each line `expression; // value` whose value is a literal:
 * `decision.status; // 403` appends `check("decision.status", decision.status, 403)`.
 */
export function withChecks(block: string): string {
  const checks: string[] = [];
  for (const line of block.split('\n')) {
    const match = /^([A-Za-z_$][\w$.[\]'"-]*);\s*\/\/\s*(.+)$/.exec(line.trim());
    if (match === null) continue;
    try {
      new Function(`return (${match[2]});`);
    } catch {
      continue; // a comment in words, not a value
    }
    checks.push(`check(${JSON.stringify(match[1])}, ${match[1]}, ${match[2]});`);
  }
  return `${block}
function check(what: string, actual: unknown, expected: unknown): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected))
    throw new Error(\`README: \${what} is \${JSON.stringify(actual)}, the README says \${JSON.stringify(expected)}\`);
}
${checks.join('\n')}
console.log('checked ${checks.length}');
`;
}

/** The README's `tsconfig.json` for TypeScript in a CommonJS project (the JSON block naming `nodenext`). */
export function commonJsTsconfig(): { compilerOptions: Record<string, unknown> } {
  const block = [...readme().matchAll(/^```json\n([\s\S]*?)^```$/gm)].find((m) =>
    m[1]!.includes('"nodenext"'),
  );
  if (block === undefined) throw new Error('README: no tsconfig block with "nodenext"');
  return JSON.parse(block[1]!);
}
