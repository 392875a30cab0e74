/** JSON sources read with the JSON parser; positions found by one scan of the text, and only when asked. */
import type { Issue, SourcePosition } from '../core/issue.js';
import { parseSourceDocument, type SourceDocument } from '../tables/yaml-document.js';

// Deep enough for every place a source reports: `paths.<template>.<method>`, `calls.<i>.visibility`.
const MAX_DEPTH = 3;

/** Offsets of every key (and value) down to MAX_DEPTH, by path joined with NUL; one pass, no recursion. */
function indexOffsets(text: string): { keys: Map<string, number>; values: Map<string, number> } {
  const keys = new Map<string, number>();
  const values = new Map<string, number>();
  // Per open container down to MAX_DEPTH: its path, whether it is an array, its next index, the pending key.
  const stack: { path: string; depth: number; array: boolean; index: number; key: string | null }[] = [];
  let depth = 0; // containers open, including those deeper than the stack keeps
  const valueStart = (offset: number): string | null => {
    const top = stack[stack.length - 1];
    if (top === undefined || depth !== top.depth) return null;
    const name = top.array ? String(top.index++) : (top.key ?? '');
    const path = top.depth === 1 && top.path === '' ? name : `${top.path}\0${name}`;
    values.set(path, offset);
    return path;
  };
  const endOfString = (from: number) => {
    let end = text.indexOf('"', from + 1);
    while (end !== -1) {
      let slashes = 0;
      while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
      if (slashes % 2 === 0) return end;
      end = text.indexOf('"', end + 1);
    }
    return text.length;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20 || c === 0x3a) continue; // whitespace and `:`
    if (c === 0x22) {
      const end = endOfString(i);
      const top = stack[stack.length - 1];
      if (top !== undefined && depth === top.depth) {
        // A key when the container is an object and no key is pending.
        if (!top.array && top.key === null) {
          top.key = JSON.parse(text.slice(i, end + 1)) as string;
          keys.set(top.depth === 1 && top.path === '' ? top.key : `${top.path}\0${top.key}`, i);
        } else valueStart(i);
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      const path = depth === 0 ? '' : valueStart(i);
      depth++;
      if (depth === 1 || (path !== null && depth <= MAX_DEPTH))
        stack.push({ path: path ?? '', depth, array: c === 0x5b, index: 0, key: null });
    } else if (c === 0x7d || c === 0x5d) {
      if (stack[stack.length - 1]?.depth === depth) stack.pop();
      depth--;
    } else if (c === 0x2c) {
      const top = stack[stack.length - 1];
      if (top !== undefined && depth === top.depth && !top.array) top.key = null;
    } else {
      // A number, true, false or null: its first character, then past its end.
      valueStart(i);
      while (i + 1 < text.length) {
        const d = text.charCodeAt(i + 1);
        if (d <= 0x20 || d === 0x2c || d === 0x5d || d === 0x7d) break;
        i++;
      }
    }
  }
  return { keys, values };
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

/** 1-based line and column of `offset`. */
function positionAt(text: string, file: string, offset: number): SourcePosition {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { file, line, column: offset - start + 1 };
}

/**
 * Parses JSON `text` from `file` with `JSON.parse`; a syntax error is an `invalid JSON` issue at
 * its line and column. `locate` scans the text once, on first use.
 * @example
 * import { parseJsonSource } from './json-document.js';
 * const doc = parseJsonSource('{\n  "calls": ["GET /notifications"]\n}', 'calls.json');
 * doc.locate(['calls', 0]); // { file: 'calls.json', line: 2, column: 13 }
 */
export function parseJsonSource(text: string, file: string): SourceDocument {
  let value: unknown;
  const issues: Issue[] = [];
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const offset = errorOffset(text, message);
    issues.push({
      code: 'json_syntax',
      // Node quotes the text around the error: the position says where, the quote is left out.
      message: `invalid JSON: ${message
        .replace(/ in JSON at position \d+[\s\S]*$/, '')
        .replace(/, (?:\.\.\.)?"[\s\S]*" is not valid JSON$/, '')
        .replace(/^Unexpected token '(.+?)'$/, 'unexpected `$1`')}`,
      path: [],
      source: positionAt(text, file, offset),
    });
  }
  let index: ReturnType<typeof indexOffsets> | undefined;
  let lineStarts: number[] | undefined;
  const at = (offset: number): SourcePosition => {
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
  const locate = (path: readonly (string | number)[], options: { key?: boolean } = {}): SourcePosition => {
    index ??= indexOffsets(text);
    for (let depth = Math.min(path.length, MAX_DEPTH); depth > 0; depth--) {
      const key = path.slice(0, depth).map(String).join('\0');
      const offset =
        (options.key && depth === path.length ? index.keys : index.values).get(key) ?? index.values.get(key);
      if (offset !== undefined) return at(offset);
    }
    return at(Math.max(0, text.search(/\S/)));
  };
  return { file, value, issues, locate };
}

/**
 * A calls file or API description: JSON (a `.json` file) with the JSON parser, anything else as YAML.
 * @example
 * import { parseSource } from './json-document.js';
 * parseSource('[1,', 'calls.json').issues[0]?.message.startsWith('invalid JSON'); // true
 */
export function parseSource(text: string, file: string): SourceDocument {
  return /\.json$/i.test(file) ? parseJsonSource(text, file) : parseSourceDocument(text, file);
}
