/** tollgate/fetch: the gate around any Web-standard `(Request) => Response` handler (Hono, Bun, Deno, workers). */
export { type FetchHandler, type FetchOptions, withTollgate } from './adapters/fetch.js';
