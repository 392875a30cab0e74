// Writes src/generated/octokit-routes.json: every REST method of @octokit/plugin-rest-endpoint-methods
// (a devDependency) by `namespace.method`, with its HTTP method and URL template. The package ships
// this table instead of depending on the Octokit packages at run time (their dependencies want a
// newer Node than `engines` says, and a server using tollgate never needs them).
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Octokit } from '@octokit/core';
import { restEndpointMethods } from '@octokit/plugin-rest-endpoint-methods';

/** `{ "issues.listEvents": ["GET", "/repos/{owner}/{repo}/issues/{issue_number}/events"], ... }`, sorted. */
export function octokitRouteTable(): Record<string, [method: string, url: string]> {
  const client = new (Octokit.plugin(restEndpointMethods))();
  const table: Record<string, [string, string]> = {};
  const rest = client.rest as unknown as Record<string, Record<string, unknown>>;
  for (const namespace of Object.keys(rest).sort())
    for (const name of Object.keys(rest[namespace]!).sort()) {
      // Each method's public `endpoint.DEFAULTS` names its method and URL.
      const defaults = (
        rest[namespace]![name] as { endpoint?: { DEFAULTS?: { method?: string; url?: string } } }
      ).endpoint?.DEFAULTS;
      if (defaults?.method !== undefined && defaults.url !== undefined)
        table[`${namespace}.${name}`] = [defaults.method, defaults.url];
    }
  return table;
}

/** Writes the table into `out` (write then rename, so a reader never sees half a file). */
export function writeOctokitRoutes(out: string): void {
  const target = join(out, 'octokit-routes.json');
  writeFileSync(`${target}.tmp`, `${JSON.stringify(octokitRouteTable())}\n`);
  renameSync(`${target}.tmp`, target);
}
