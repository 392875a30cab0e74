/** YAML (or JSON) text parsed into a plain value that remembers where each value came from. */
import { LineCounter, parseDocument } from 'yaml';
import { type Issue, inFileOrder, type SourcePosition } from '../core/issue.js';
import { nodeFinder, REPEATED_KEY_MESSAGE, repeatedKeyOffsets } from './yaml-keys.js';

/** A parsed document: its plain value, syntax problems, and a locator for any path inside it. */
export interface SourceDocument {
  readonly file: string;
  readonly value: unknown;
  readonly issues: readonly Issue[];
  /** Position of the value at `path`, or of its nearest ancestor that exists. */
  readonly locate: (path: readonly (string | number)[], options?: { key?: boolean }) => SourcePosition;
}

/**
 * The most line breaks, commas, dashes and opening brackets a YAML document may hold: an upper
 * bound on its nodes, counted before parsing. yaml keeps about 200 bytes a node and peaks at about
 * five times that while parsing, so a 4 MB flow list of 2 million items took 2.1 GB and a 60 MB
 * token file ended the process out of memory. At this bound a document peaks near 1 GB whatever
 * its shape; the shipped permissions table holds about 8,300.
 */
export const MAX_YAML_MARKS = 250_000;

/** The issue of a document past MAX_YAML_MARKS, or null; counting stops once past the bound. */
export function tooLargeForYaml(text: string, file: string): Issue | null {
  let marks = 0;
  for (let i = 0; i < text.length && marks <= MAX_YAML_MARKS; i++) {
    const c = text.charCodeAt(i);
    // \n , - [ {
    if (c === 0x0a || c === 0x2c || c === 0x2d || c === 0x5b || c === 0x7b) marks++;
  }
  if (marks <= MAX_YAML_MARKS) return null;
  const bound = MAX_YAML_MARKS.toLocaleString('en-US');
  return {
    code: 'too_large',
    message: `too large to read as YAML: more than ${bound} line breaks, commas, dashes and brackets (split the document)`,
    path: [],
    source: { file, line: 1, column: 1 },
  };
}

/**
 * Parses `text` (YAML 1.2; JSON is valid YAML) from `file`. Duplicate keys are errors, and so is a
 * document past MAX_YAML_MARKS (one issue, nothing parsed).
 * @example
 * import { parseSourceDocument } from 'tollgate/tables';
 * const doc = parseSourceDocument('kind: classic\nscopes: [repo]\n', 'token.yaml');
 * doc.locate(['scopes', 0]); // { file: 'token.yaml', line: 2, column: 10 }
 */
export function parseSourceDocument(text: string, file: string): SourceDocument {
  const tooLarge = tooLargeForYaml(text, file);
  if (tooLarge !== null) return { file, value: undefined, issues: [tooLarge], locate: () => tooLarge.source };
  const lineCounter = new LineCounter();
  // Repeated keys are found by repeatedKeyOffsets, in linear time (yaml's check is quadratic).
  const document = parseDocument(text, { lineCounter, uniqueKeys: false, prettyErrors: false });
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
  const issues = inFileOrder([
    ...document.errors.map((error) => syntaxIssue(error.message, error.pos[0])),
    ...repeatedKeyOffsets(document).map((offset) => syntaxIssue(REPEATED_KEY_MESSAGE, offset)),
  ]);
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
      issues.push(syntaxIssue(error instanceof Error ? error.message : String(error), 0));
    }
  }
  return { file, value, issues, locate };
}
