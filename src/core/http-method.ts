/** HTTP methods, shared by the route matcher, the evaluator and the limits. */

/** HTTP methods the endpoint table uses. */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/**
 * Every HTTP method the endpoint table uses, in a stable order.
 * @example
 * import { HTTP_METHODS } from 'tollgate/policy';
 * HTTP_METHODS.includes('PATCH'); // true
 */
export const HTTP_METHODS: readonly HttpMethod[] = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
];
