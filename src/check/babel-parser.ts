/** @babel/parser, loaded on first use: only `check` of JS/TS sources and workflow scripts needs it. */

import { createRequire } from 'node:module';
import type { parse as babelParse } from '@babel/parser';

let loaded: typeof babelParse | undefined;

/**
 * `parse` of @babel/parser, required the first time it is called (synchronously: the parser is a
 * CommonJS package), so importing `tollgate/check` for its reporters or calls files, or any other
 * entry, never loads it.
 * @example
 * import { parse } from './babel-parser.js';
 * parse('octokit.rest.issues.get({})', { sourceType: 'module' }).program.body.length; // 1
 */
export const parse: typeof babelParse = (code, options) => {
  loaded ??= (createRequire(import.meta.url)('@babel/parser') as { parse: typeof babelParse }).parse;
  return loaded(code, options);
};
