/** The routes of Octokit's REST methods (`octokit.rest.issues.listEvents`), read from the client itself. */

/** A method's route: `{ method: 'GET', url: '/repos/{owner}/{repo}/issues/{issue_number}/events' }`. */
export interface OctokitRoute {
  readonly method: string;
  readonly url: string;
}

let loaded: Promise<ReadonlyMap<string, OctokitRoute>> | undefined;

/**
 * Every REST method of `@octokit/plugin-rest-endpoint-methods`, by `namespace.method`, through its
 * public API: each method's `endpoint.DEFAULTS` names its method and URL. Loaded once, on first use.
 * @example
 * import { octokitRoutes } from './octokit-routes.js';
 * (await octokitRoutes()).get('issues.listEventsForRepo'); // { method: 'GET', url: '/repos/{owner}/{repo}/issues/events' }
 */
export function octokitRoutes(): Promise<ReadonlyMap<string, OctokitRoute>> {
  loaded ??= (async () => {
    const [{ Octokit }, { restEndpointMethods }] = await Promise.all([
      import('@octokit/core'),
      import('@octokit/plugin-rest-endpoint-methods'),
    ]);
    const client = new (Octokit.plugin(restEndpointMethods))();
    const routes = new Map<string, OctokitRoute>();
    for (const [namespace, methods] of Object.entries(client.rest as Record<string, Record<string, unknown>>))
      for (const [name, method] of Object.entries(methods)) {
        const defaults = (method as { endpoint?: { DEFAULTS?: { method?: string; url?: string } } }).endpoint
          ?.DEFAULTS;
        if (defaults?.method !== undefined && defaults.url !== undefined)
          routes.set(`${namespace}.${name}`, { method: defaults.method, url: defaults.url });
      }
    return routes;
  })();
  return loaded;
}
