/** JSON files read with the JSON parser; positions found by one scan of the text, and only when asked. */
import type { Issue, SourcePosition } from '../core/issue.js';
import { indexJsonPositions, type JsonPositions } from './json-positions.js';
import { parseSourceDocument, type SourceDocument } from './yaml-document.js';

/**
 * How a JSON file is read. `maxDepth`: how many containers deep positions are indexed (every
 * depth by default; check's calls files and API descriptions ask for 3, `paths.<template>.<method>`).
 * `uniqueKeys`: a key repeated in one object is a problem (JSON.parse would keep the last silently).
 */
export interface JsonReadOptions {
  readonly maxDepth?: number;
  readonly uniqueKeys?: boolean;
}

/**
 * Where JSON.parse stopped: its `position N`, or (Node 20 omits it for an unexpected token) the
 * text it quotes around the token, found in `text`.
 */
function errorOffset(text: string, message: string): number {
  const position = /position (\d+)/.exec(message)?.[1];
  if (position !== undefined) return Number(position);
  const quoted = /^Unexpected token '(.+?)', (?:\.\.\.)?"([\s\S]*)"(?:\.\.\.)? is not valid JSON$/.exec(
    message,
  );
  if (quoted === null) return text.length;
  const [, token = '', around = ''] = quoted;
  const at = text.indexOf(around);
  return at < 0 ? text.length : at + Math.max(0, around.indexOf(token));
}

/** 1-based line and column of an offset, from the line starts found on first use. */
function lineColumn(text: string, file: string): (offset: number) => SourcePosition {
  let lineStarts: number[] | undefined;
  return (offset) => {
    if (lineStarts === undefined) {
      lineStarts = [0];
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
    }
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (lineStarts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return { file, line: low + 1, column: offset - lineStarts[low]! + 1 };
  };
}

function syntaxIssue(text: string, message: string, at: (offset: number) => SourcePosition): Issue {
  return {
    code: 'json_syntax',
    // Node quotes the text around the error: the position says where, the quote is left out;
    // its sentence starts lowercase, as every message does.
    message: `invalid JSON: ${message
      .replace(/ in JSON at position \d+[\s\S]*$/, '')
      .replace(/, (?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, '')
      .replace(/^Unexpected token '(.+?)'$/, 'unexpected `$1`')
      .replace(/^[A-Z](?=[a-z])/, (first) => first.toLowerCase())}`,
    path: [],
    source: at(errorOffset(text, message)),
  };
}

/**
 * Parses JSON `text` from `file` with `JSON.parse`; a syntax error is an `invalid JSON` issue at
 * its line and column, and so is a repeated key with `uniqueKeys`. A leading byte order mark is
 * read as a space. Positions are indexed by one scan of the text, on first use (at once with
 * `uniqueKeys`, which needs the scan), and located step by step.
 * @example
 * import { parseJsonSource } from './json-document.js';
 * const doc = parseJsonSource('{\n  "calls": ["GET /notifications"]\n}', 'calls.json');
 * doc.locate(['calls', 0]); // { file: 'calls.json', line: 2, column: 13 }
 */
export function parseJsonSource(source: string, file: string, options: JsonReadOptions = {}): SourceDocument {
  const text = source.charCodeAt(0) === 0xfeff ? ` ${source.slice(1)}` : source;
  const at = lineColumn(text, file);
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  let value: unknown;
  const issues: Issue[] = [];
  let index: JsonPositions | undefined;
  try {
    value = JSON.parse(text);
  } catch (error) {
    issues.push(syntaxIssue(text, error instanceof Error ? error.message : String(error), at));
  }
  if (issues.length === 0 && options.uniqueKeys) {
    index = indexJsonPositions(text, { maxDepth, repeatedKeys: true });
    for (const { name, offset } of index.repeatedKeys)
      issues.push({
        code: 'json_syntax',
        message: `invalid JSON: key \`${name}\` given twice in one object (give it once)`,
        path: [],
        source: at(offset),
      });
    if (issues.length > 0) value = undefined;
  }
  const locate = (path: readonly (string | number)[], where: { key?: boolean } = {}): SourcePosition => {
    index ??= indexJsonPositions(text, { maxDepth });
    return at(index.offsetOf(path, where.key === true));
  };
  return { file, value, issues, locate };
}

/**
 * A file read by its name: JSON (a `.json` file) with the JSON parser, anything else as YAML.
 * @example
 * import { parseSource } from './json-document.js';
 * parseSource('[1,', 'calls.json').issues[0]?.message.startsWith('invalid JSON'); // true
 */
export function parseSource(text: string, file: string, options: JsonReadOptions = {}): SourceDocument {
  return /\.json$/i.test(file) ? parseJsonSource(text, file, options) : parseSourceDocument(text, file);
}

/**
 * A token, scenario, limits or table file by its name: a `.json` file with the JSON parser, its
 * positions indexed at every depth (a scenario reports `callers.0.token.scopes.1`) and a repeated
 * key refused as YAML refuses it; anything else as YAML.
 * @example
 * import { parseDataFile } from './json-document.js';
 * parseDataFile('{"kind": "classic", "kind": "oauth-app"}', 'token.json').issues[0]?.message;
 * // 'invalid JSON: key `kind` given twice in one object (give it once)'
 */
export function parseDataFile(text: string, file: string): SourceDocument {
  return parseSource(text, file, { uniqueKeys: true });
}
