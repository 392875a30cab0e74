/** YAML (or JSON) text parsed into a plain value that remembers where each value came from. */
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import { type Issue, inFileOrder, type SourcePosition } from '../core/issue.js';

/** A parsed document: its plain value, syntax problems, and a locator for any path inside it. */
export interface SourceDocument {
  readonly file: string;
  readonly value: unknown;
  readonly issues: readonly Issue[];
  /** Position of the value at `path`, or of its nearest ancestor that exists. */
  readonly locate: (path: readonly (string | number)[], options?: { key?: boolean }) => SourcePosition;
}

/**
 * Parses `text` (YAML 1.2; JSON is valid YAML) from `file`. Duplicate keys are errors.
 * @example
 * import { parseSourceDocument } from 'tollgate/tables';
 * const doc = parseSourceDocument('kind: classic\nscopes: [repo]\n', 'token.yaml');
 * doc.locate(['scopes', 0]); // { file: 'token.yaml', line: 2, column: 10 }
 */
export function parseSourceDocument(text: string, file: string): SourceDocument {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const at = (offset: number): SourcePosition => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, column: col };
  };
  const syntaxIssue = (message: string, offset: number): Issue => ({
    code: 'yaml_syntax',
    message: `invalid YAML: ${message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
    path: [],
    source: at(offset),
  });
  const issues = inFileOrder(document.errors.map((error) => syntaxIssue(error.message, error.pos[0])));
  const locate = (path: readonly (string | number)[], options: { key?: boolean } = {}): SourcePosition => {
    for (let depth = path.length; depth >= 0; depth--) {
      const prefix = path.slice(0, depth);
      if (options.key && depth === path.length && depth > 0) {
        const parent = prefix.length > 1 ? document.getIn(prefix.slice(0, -1), true) : document.contents;
        if (isMap(parent)) {
          const pair = parent.items.find(
            (item) => isScalar(item.key) && item.key.value === prefix[prefix.length - 1],
          );
          const range = (pair?.key as { range?: [number, number, number] } | undefined)?.range;
          if (range) return at(range[0]);
        }
        continue;
      }
      const node = depth === 0 ? document.contents : document.getIn(prefix, true);
      const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
      if (range) return at(range[0]);
    }
    return { file, line: 1, column: 1 };
  };
  let value: unknown;
  if (issues.length === 0) {
    try {
      value = document.toJS({ maxAliasCount: 100 });
    } catch (error) {
      // An alias to an undefined anchor, or an alias bomb past maxAliasCount, surfaces only here.
      issues.push(syntaxIssue(error instanceof Error ? error.message : String(error), 0));
    }
  }
  return { file, value, issues, locate };
}
