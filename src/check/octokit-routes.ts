/** The routes of Octokit's REST methods (`octokit.rest.issues.listEvents`), from the table generated at build time. */

/** A method's route: `{ method: 'GET', url: '/repos/{owner}/{repo}/issues/{issue_number}/events' }`. */
export interface OctokitRoute {
  readonly method: string;
  readonly url: string;
}

let loaded: Promise<ReadonlyMap<string, OctokitRoute>> | undefined;

/**
 * Every REST method of `@octokit/plugin-rest-endpoint-methods`, by `namespace.method`: read by
 * `npm run tables` from the client's public API (each method's `endpoint.DEFAULTS`) into
 * src/generated/octokit-routes.json, so the installed package needs no Octokit package. Loaded
 * once, on first use, as a chunk of its own (only `check` of JS/TS sources and workflows reads it).
 * @example
 * import { octokitRoutes } from './octokit-routes.js';
 * (await octokitRoutes()).get('issues.listEventsForRepo'); // { method: 'GET', url: '/repos/{owner}/{repo}/issues/events' }
 */
export function octokitRoutes(): Promise<ReadonlyMap<string, OctokitRoute>> {
  loaded ??= import('../generated/octokit-routes.json', { with: { type: 'json' } }).then(
    ({ default: table }) => {
      const routes = new Map<string, OctokitRoute>();
      for (const [name, [method, url]] of Object.entries(
        table as unknown as Record<string, [string, string]>,
      ))
        routes.set(name, { method, url });
      return routes;
    },
  );
  return loaded;
}
