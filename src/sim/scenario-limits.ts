/** Limits for a simulation: the shipped table with an overlay over it, for the values the seed does not show. */
import { TollgateError } from '../core/errors.js';
import { issuesError } from '../core/issue.js';
import limitsTable from '../generated/limits.json' with { type: 'json' };
import { compileLimits } from '../limits/compile-limits.js';
import type { LimitsConfig } from '../limits/limits-config.js';
import { parseDataFile, parseJsonSource } from '../tables/json-document.js';
import { readTextFile } from '../tables/load-tables.js';
import { validateDocument } from '../tables/schema-validator.js';

type Raw = Record<string, unknown>;

const isObject = (value: unknown): value is Raw =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `over` merged into `base` key by key; arrays and scalars of `over` replace. */
function deepMerge(base: unknown, over: unknown): unknown {
  if (!isObject(base) || !isObject(over)) return over;
  const merged: Raw = { ...base };
  for (const [key, value] of Object.entries(over)) merged[key] = deepMerge(base[key], value);
  return merged;
}

/**
 * The limits table merged with each overlay in turn (the fields of data/limits.yaml, any subset:
 * `{ secondary: { content: { per_minute: 40 } } }`), checked against the limits schema, compiled.
 * `origin` names where the overlays come from in the one-line error. Throws TOLLGATE_INVALID_INPUT.
 * @example
 * import { limitsWithOverlays } from './scenario-limits.js';
 * limitsWithOverlays([{ secondary: { content: { per_minute: 40 } } }], 'slow-content.yaml').secondary.content.perMinute; // 40
 */
export function limitsWithOverlays(overlays: readonly unknown[], origin: string): LimitsConfig {
  let merged: unknown = limitsTable;
  for (const overlay of overlays) merged = deepMerge(merged, overlay);
  // Validated as one document: every problem named by its field, all at once. The text is JSON
  // whatever the overlays were written in, so the JSON parser reads it.
  const document = parseJsonSource(JSON.stringify(merged), origin);
  const issues = validateDocument(document, 'limits');
  if (issues.length > 0)
    throw new TollgateError(
      'TOLLGATE_INVALID_INPUT',
      `${origin}: limits: ${issues.map((issue) => issue.message).join('; ')}`,
    );
  try {
    return compileLimits(merged);
  } catch (error) {
    throw new TollgateError('TOLLGATE_INVALID_INPUT', `${origin}: limits: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * A limits overlay file (YAML, or JSON read with the JSON parser), parsed; a syntax error is one
 * `file:line:col` line.
 * @example
 * // readLimitsOverlay('search-limits.yaml') -> { primary: { resources: { search: { authenticated: 10 } } } }
 */
export function readLimitsOverlay(file: string): unknown {
  const document = parseDataFile(readTextFile(file), file);
  if (document.issues.length > 0) throw issuesError('TOLLGATE_INVALID_INPUT', document.issues, `\`${file}\``);
  if (!isObject(document.value))
    throw new TollgateError(
      'TOLLGATE_INVALID_INPUT',
      `${file}: a limits overlay is a mapping of data/limits.yaml's fields`,
    );
  return document.value;
}
