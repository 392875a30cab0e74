/** The base table with its overlays applied in order: one raw entry per endpoint, with where it was last written. */
import type { TableSource, TableSources } from './table-sources.js';
import type { RawEndpoint, RawPermissionsTable } from './tables.js';

/** One endpoint after every overlay: its fields, the file that wrote it last, its file's defaults. */
export interface MergedEndpoint {
  readonly raw: RawEndpoint;
  readonly source: TableSource<RawPermissionsTable>;
  readonly defaults: RawPermissionsTable['defaults'];
}

/**
 * An overlay entry replaces the fields it names of an existing endpoint (keeping the base file's
 * defaults), or adds an endpoint with its own file's defaults.
 * @example
 * import { type RawPermissionsTable, shippedSources, type TableSource } from 'tollgate/policy';
 * import { mergeOverlays } from './merge-overlays.js';
 * const value: RawPermissionsTable = { version: 1, endpoints: { 'GET /x': { fine_grained: 'none' } } };
 * const overlay: TableSource<RawPermissionsTable> = { file: 'overlay.yaml', value };
 * mergeOverlays({ ...shippedSources, overlays: [overlay] }).get('GET /x')?.source.file; // 'overlay.yaml'
 */
export function mergeOverlays(sources: TableSources): Map<string, MergedEndpoint> {
  const base = sources.permissions.value;
  const merged = new Map<string, MergedEndpoint>();
  for (const source of [sources.permissions, ...(sources.overlays ?? [])]) {
    for (const [key, raw] of Object.entries(source.value.endpoints)) {
      const previous = merged.get(key);
      merged.set(
        key,
        previous === undefined
          ? { raw, source, defaults: source.value.defaults ?? base.defaults }
          : { raw: { ...previous.raw, ...raw }, source, defaults: previous.defaults },
      );
    }
  }
  return merged;
}
