// Every `@example` in the JSDoc of src/ compiles: each is written out as a module of its own (its
// `tollgate` imports resolved to the source entries, its relative imports to the file it documents)
// and type-checked under strict settings. An example that names something the import path does
// not export, or a variable it never declares, fails here.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ENTRY_POINTS } from '../../entry-points.js';

const root = join(import.meta.dirname, '..', '..');
const src = join(root, 'src');
const out = join(root, 'node_modules', '.cache', 'tollgate-tests', `jsdoc-examples-${process.pid}`);

// Every published entry, as a user imports it (entry-points.ts): an example that imports a name
// an entry does not publish fails to compile.
const ENTRIES: Record<string, string> = Object.fromEntries(
  Object.entries(ENTRY_POINTS).map(([entry, path]) => [
    entry === 'index' ? 'tollgate' : `tollgate/${entry}`,
    path,
  ]),
);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

interface Example {
  readonly file: string;
  readonly line: number;
  readonly code: string;
}

/** The text of each `@example` tag: the comment lines after it, up to the next tag or the end. */
function examplesOf(file: string): Example[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const examples: Example[] = [];
  lines.forEach((line, i) => {
    if (!/^\s*\*\s*@example\s*$/.test(line)) return;
    const body: string[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const text = lines[j]!;
      if (/^\s*\*\//.test(text) || /^\s*\*\s*@\w+/.test(text)) break;
      body.push(text.replace(/^\s*\* ?/, ''));
    }
    examples.push({ file, line: i + 1, code: body.join('\n') });
  });
  return examples;
}

/** The example as a module: relative imports pointed at the documented file's folder. */
function moduleOf(example: Example, target: string): string {
  const code = example.code.replace(/from '(\.[^']+)'/g, (_, spec: string) => {
    const absolute = resolve(dirname(example.file), spec);
    let path = relative(dirname(target), absolute);
    if (!path.startsWith('.')) path = `./${path}`;
    return `from '${path}'`;
  });
  // A module of its own, so two examples may declare the same names.
  return `${code}\nexport {};\n`;
}

describe('JSDoc examples', () => {
  const examples = sourceFiles(src).flatMap(examplesOf);

  it('finds the examples of every exported function', () => {
    expect(examples.length).toBeGreaterThan(50);
  });

  it('compile, each as a module of its own, under strict settings', () => {
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    const written = new Map<string, Example>();
    examples.forEach((example, i) => {
      const target = join(out, `example-${i}.ts`);
      writeFileSync(target, moduleOf(example, target));
      written.set(target, example);
    });
    const program = ts.createProgram([...written.keys()], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      resolveJsonModule: true,
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [join(root, 'node_modules', '@types')],
      baseUrl: root,
      paths: Object.fromEntries(Object.entries(ENTRIES).map(([name, path]) => [name, [path]])),
      // Fragments on purpose: `decision.status; // 403` shows a value.
      allowUnreachableCode: true,
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file !== undefined && written.has(resolve(d.file.fileName)))
      .map((d) => {
        const example = written.get(resolve(d.file!.fileName))!;
        const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
        return `${relative(root, example.file)}:${example.line + 1 + line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
      });
    rmSync(out, { recursive: true, force: true });
    expect(problems).toEqual([]);
  });
});
