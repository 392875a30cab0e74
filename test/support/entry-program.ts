// A TypeScript program over the package's entry files, with its type checker: what the tests that
// read each entry's published names (values, types, their declarations) start from.
import { join } from 'node:path';
import ts from 'typescript';

const root = join(import.meta.dirname, '..', '..');

/** The program over `entries` (paths relative to the repository root) and its checker. */
export function entryProgram(entries: readonly string[]): { program: ts.Program; checker: ts.TypeChecker } {
  const program = ts.createProgram(
    entries.map((entry) => join(root, entry)),
    {
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      target: ts.ScriptTarget.ES2022,
      resolveJsonModule: true,
      noEmit: true,
      skipLibCheck: true,
    },
  );
  return { program, checker: program.getTypeChecker() };
}
