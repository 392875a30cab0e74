/** The package version: written into the build by tsup; read from package.json when run from source. */
import { readFileSync } from 'node:fs';

declare const __TOLLGATE_VERSION__: string | undefined;

function versionFromSource(): string {
  // src/cli/version.ts -> package.json, two folders up.
  const manifest = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(manifest) as { version: string }).version;
}

export const TOLLGATE_VERSION: string =
  typeof __TOLLGATE_VERSION__ === 'string' ? __TOLLGATE_VERSION__ : versionFromSource();
