/** Which documentation a refusal body links to: authentication, permissions or rate limits. */

/**
 * The `documentation_url` of each kind of refusal. The seeds give no URL (seed 000, "Errors": the
 * body shape is "not shown"): the defaults are placeholders on the same host as the limits table's
 * `answers.documentation_url`, to replace with your own documentation.
 * @example
 * import type { GateOptions } from 'tollgate';
 * const urls: GateOptions['documentationUrls'] = { permissions: 'https://docs.example.org/permissions' };
 */
export interface DocumentationUrls {
  /** 401 (bad credentials, authentication required), 404 and 400. Default `https://docs.example.com/rest/authentication`. */
  readonly authentication?: string;
  /** 403 refusals of the policy (permission, scope, token kind, organization owner). Default `https://docs.example.com/rest/permissions`. */
  readonly permissions?: string;
  /** Refusals of the limits (403/429, 503 when the store is down). Default: the limits table's `answers.documentation_url`. */
  readonly rateLimits?: string;
}

/** tollgate's placeholders; the seeds show no documentation address. */
export const DEFAULT_AUTHENTICATION_URL = 'https://docs.example.com/rest/authentication';
export const DEFAULT_PERMISSIONS_URL = 'https://docs.example.com/rest/permissions';

/**
 * The URL a refusal of the policy links to, by its status. A 404 links to the authentication
 * documentation as any 404 does: a resource hidden from the caller must answer exactly as a
 * missing one (the service's existence hiding), and that documentation is where it is explained.
 * @example
 * import { policyDocumentationUrl } from './documentation-urls.js';
 * policyDocumentationUrl({ authentication: 'https://a', permissions: 'https://p' }, 403); // 'https://p'
 * policyDocumentationUrl({ authentication: 'https://a', permissions: 'https://p' }, 404); // 'https://a'
 */
export function policyDocumentationUrl(
  urls: { readonly authentication: string; readonly permissions: string },
  status: number,
): string {
  return status === 403 ? urls.permissions : urls.authentication;
}
