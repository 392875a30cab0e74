/** What an adapter tells the gate about a request: nothing framework-specific. */

/**
 * The facts of one request, as any server can give them.
 * @example
 * import type { RequestFacts } from 'tollgate';
 * const facts: RequestFacts = {
 *   method: 'GET',
 *   target: '/repos/octo/app/issues/events?per_page=50',
 *   header: (name) => (name === 'authorization' ? 'Bearer t0ken' : undefined),
 *   remoteAddress: '203.0.113.7',
 * };
 */
export interface RequestFacts {
  readonly method: string;
  /** The raw request target: path and query string, still percent-encoded. */
  readonly target: string;
  /** A request header by its lower-case name (several values joined by `, `), or undefined. */
  header(name: string): string | undefined;
  /** The peer's address as the socket sees it (the proxy's, behind one). */
  readonly remoteAddress?: string;
}
