/** One spelling of a path's slashes: repeated slashes collapsed, a trailing slash dropped. */

// Two or more slashes in a row: one regex pass, linear in the path's length.
const REPEATED_SLASHES = /\/{2,}/g;

/**
 * Rewrites the path part of a raw request target (the query string and fragment stay as they
 * are) the way routers that ignore slashes read it: `//` and longer runs become `/` (Fastify's
 * `ignoreDuplicateSlashes`), and a trailing `/` goes (Express without `strict` routing, Fastify's
 * `ignoreTrailingSlash`, Hono with `strict: false`). Returns `target` itself when there is nothing
 * to rewrite, so the usual path costs two searches and no string.
 * @example
 * import { collapseSlashes } from './collapse-slashes.js';
 * collapseSlashes('//repos/o//r/issues/?state=open'); // '/repos/o/r/issues?state=open'
 * collapseSlashes('/'); // '/'
 */
export function collapseSlashes(target: string): string {
  let end = target.indexOf('?');
  const hash = target.indexOf('#');
  if (end === -1 || (hash !== -1 && hash < end)) end = hash;
  const path = end === -1 ? target : target.slice(0, end);
  const trailing = path.length > 1 && path.charCodeAt(path.length - 1) === 47; /* '/' */
  if (!trailing && !path.includes('//')) return target;
  let collapsed = path.replace(REPEATED_SLASHES, '/');
  if (collapsed.length > 1 && collapsed.charCodeAt(collapsed.length - 1) === 47)
    collapsed = collapsed.slice(0, -1);
  return end === -1 ? collapsed : collapsed + target.slice(end);
}
