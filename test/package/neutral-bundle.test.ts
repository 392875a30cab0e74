// The pure entries bundle for any runtime (an edge worker, a browser, Deno): esbuild with the
// neutral platform resolves no Node built-in, and neither ajv nor yaml ends up in the bundle.
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { ENTRY_POINTS } from '../../entry-points.js';

const root = join(import.meta.dirname, '..', '..');

async function bundle(entry: string) {
  return build({
    entryPoints: [join(root, entry)],
    bundle: true,
    platform: 'neutral',
    format: 'esm',
    mainFields: ['module', 'main'],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
}

describe('entries that must run anywhere', () => {
  it.each([
    ENTRY_POINTS.index,
    ENTRY_POINTS.routes,
    ENTRY_POINTS.limits,
    ENTRY_POINTS.policy,
    ENTRY_POINTS.fetch,
  ])('%s bundles for a neutral platform without node:*, ajv or yaml', async (entry) => {
    const result = await bundle(entry);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => /node_modules[\\/](ajv|yaml)[\\/]|^node:/.test(input))).toEqual([]);
    const code = result.outputFiles[0]!.text;
    expect(code).not.toMatch(/from\s*["']node:|require\(["']node:/);
  });

  it('the Node-only tables entry does need Node (the check can tell the difference)', async () => {
    await expect(bundle(ENTRY_POINTS.tables)).rejects.toThrow(/node:|Could not resolve/);
  });
});
