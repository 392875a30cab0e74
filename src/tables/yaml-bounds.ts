/**
 * What a YAML document may cost. yaml keeps a node, or an error, for nearly every token of the
 * text, and a document is parsed whole: its size in tokens bounds its memory, and nothing else
 * does (a 60 MB token file ran the process out of memory after 134 s; a 1 MB file of stray `}`
 * took 1.3 GB, each error carrying a stack trace).
 */
import { type Document, Lexer, LineCounter, parseDocument } from 'yaml';
import { type Issue, inFileOrder, type SourcePosition } from '../core/issue.js';
import { REPEATED_KEY_MESSAGE, repeatedKeyOffsets } from './yaml-keys.js';

/**
 * The most tokens (scalars, indicators, line breaks, as yaml's lexer counts them) a YAML document
 * may hold. The service's own OpenAPI description as YAML (10 MB) holds 1.69 million and the
 * shipped permissions table 35,351. Measured just under it (peak memory and time of the CLI, node
 * 20): `validate` of a file of a million `""` errors 0.90 GB and 12 s, of a million stray `}`
 * 0.71 GB and 11 s, of an overlay of 79,000 endpoints 0.80 GB and 10 s, of anchors and tags
 * 0.42 GB; `check` of the OpenAPI description 0.46 GB and 7 s. Past it: refused in about a second.
 */
export const MAX_YAML_TOKENS = 2_000_000;

/** No text this short can hold MAX_YAML_TOKENS: yaml's lexer yields at most 1.5 tokens a character. */
const SURELY_SMALL = MAX_YAML_TOKENS / 4;

/** The issue of a document past MAX_YAML_TOKENS, or null; the count stops once past the bound. */
export function tooLargeForYaml(text: string, file: string): Issue | null {
  if (text.length <= SURELY_SMALL) return null;
  let tokens = 0;
  for (const _token of new Lexer().lex(text)) {
    if (++tokens > MAX_YAML_TOKENS) {
      const bound = MAX_YAML_TOKENS.toLocaleString('en-US');
      return {
        code: 'too_large',
        message: `too large to read as YAML: more than ${bound} tokens (split the document; a calls file or OpenAPI description may be given as .json, read with the JSON parser)`,
        path: [],
        source: { file, line: 1, column: 1 },
      };
    }
  }
  return null;
}

/**
 * `parseDocument` with repeated keys left to the caller (yaml's check is quadratic: yaml-keys.ts),
 * errors without stack traces (a stray `}` costs 400 bytes, not 1.3 KB), and a nesting too deep
 * for the parser's recursion reported as an error at the start, not thrown.
 */
function parseYaml(text: string, lineCounter: LineCounter): Document | { readonly tooDeep: string } {
  const traces = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return parseDocument(text, { lineCounter, uniqueKeys: false, prettyErrors: false });
  } catch (error) {
    if (error instanceof RangeError) return { tooDeep: `nested too deeply to read (${error.message})` };
    throw error;
  } finally {
    Error.stackTraceLimit = traces;
  }
}

/** The most syntax errors a document's reading reports; the rest are one line saying how many. */
export const MAX_SYNTAX_ERRORS = 100;

/**
 * The first MAX_SYNTAX_ERRORS of yaml's errors and repeated keys, by offset, and one more saying how
 * many were left out: a file of a million errors made a million issues (2.6 GB in `validate`).
 */
function syntaxErrors(
  document: Document,
  repeated: readonly number[],
  repeatedMessage: string,
): { message: string; offset: number }[] {
  const all = [
    ...document.errors
      .slice(0, MAX_SYNTAX_ERRORS + 1)
      .map((error) => ({ message: error.message, offset: error.pos[0] })),
    ...repeated.slice(0, MAX_SYNTAX_ERRORS + 1).map((offset) => ({ message: repeatedMessage, offset })),
  ].sort((a, b) => a.offset - b.offset);
  const total = document.errors.length + repeated.length;
  if (total <= MAX_SYNTAX_ERRORS) return all;
  const kept = all.slice(0, MAX_SYNTAX_ERRORS);
  const next = all[MAX_SYNTAX_ERRORS]!;
  kept.push({
    message: `${(total - MAX_SYNTAX_ERRORS).toLocaleString('en-US')} more errors from here on`,
    offset: next.offset,
  });
  return kept;
}

/** yaml's message as an `invalid YAML: ...` issue: its first line, without the position it repeats. */
export function yamlIssue(message: string, source: SourcePosition): Issue {
  return {
    code: 'yaml_syntax',
    message: `invalid YAML: ${message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
    path: [],
    source,
  };
}

/** A YAML text read within the bounds above: its document, or none when it could not be parsed, and its problems. */
export interface ReadYaml {
  /** Null when the text is past MAX_YAML_TOKENS or nested too deeply: nothing was parsed. */
  readonly document: Document | null;
  /** Syntax errors and repeated keys, each at its line and column, in file order. */
  readonly issues: Issue[];
  /** Line and column of an offset of the text. */
  readonly at: (offset: number) => SourcePosition;
}

/**
 * The one way a YAML text is read (tables, tokens, scenarios, calls files, workflows): the token
 * bound, the parse without stack traces, repeated keys in linear time, at most
 * MAX_SYNTAX_ERRORS problems, each an `invalid YAML: ...` issue.
 * @example
 * import { readYaml } from './yaml-bounds.js';
 * readYaml('a: 1\na: 2\n', 'x.yaml').issues[0]?.message; // 'invalid YAML: Map keys must be unique'
 */
export function readYaml(text: string, file: string): ReadYaml {
  const lineCounter = new LineCounter();
  const at = (offset: number): SourcePosition => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, column: col };
  };
  const start = { file, line: 1, column: 1 };
  const tooLarge = tooLargeForYaml(text, file);
  if (tooLarge !== null) return { document: null, issues: [tooLarge], at: () => start };
  const document = parseYaml(text, lineCounter);
  if ('tooDeep' in document) return { document: null, issues: [yamlIssue(document.tooDeep, start)], at };
  const problems = syntaxErrors(document, repeatedKeyOffsets(document), REPEATED_KEY_MESSAGE);
  return {
    document,
    issues: inFileOrder(problems.map(({ message, offset }) => yamlIssue(message, at(offset)))),
    at,
  };
}
