/** YAML (or JSON) text parsed into a plain value that remembers where each value came from. */
import type { Issue, SourcePosition } from '../core/issue.js';
import { readYaml, yamlIssue } from './yaml-bounds.js';
import { nodeFinder } from './yaml-keys.js';

/** A parsed document: its plain value, syntax problems, and a locator for any path inside it. */
export interface SourceDocument {
  readonly file: string;
  readonly value: unknown;
  readonly issues: readonly Issue[];
  /** Position of the value at `path`, or of its nearest ancestor that exists. */
  readonly locate: (path: readonly (string | number)[], options?: { key?: boolean }) => SourcePosition;
}

/**
 * Parses `text` (YAML 1.2; JSON is valid YAML) from `file`. Duplicate keys are errors, and so is a
 * document past MAX_YAML_TOKENS (yaml-bounds.ts: one issue, nothing parsed).
 * @example
 * import { parseSourceDocument } from 'tollgate/tables';
 * const doc = parseSourceDocument('kind: classic\nscopes: [repo]\n', 'token.yaml');
 * doc.locate(['scopes', 0]); // { file: 'token.yaml', line: 2, column: 10 }
 */
export function parseSourceDocument(text: string, file: string): SourceDocument {
  const read = readYaml(text, file);
  const { document, issues, at } = read;
  if (document === null) return { file, value: undefined, issues, locate: () => issues[0]!.source };
  const find = nodeFinder(document);
  const locate = (path: readonly (string | number)[], options: { key?: boolean } = {}): SourcePosition => {
    for (let depth = path.length; depth >= 0; depth--) {
      const prefix = path.slice(0, depth);
      if (options.key && depth === path.length && depth > 0) {
        const range = (find.pair(prefix)?.key as { range?: [number, number, number] } | undefined)?.range;
        if (range) return at(range[0]);
        continue;
      }
      const range = (find.node(prefix) as { range?: [number, number, number] } | undefined)?.range;
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
      issues.push(yamlIssue(error instanceof Error ? error.message : String(error), at(0)));
    }
  }
  return { file, value, issues, locate };
}
