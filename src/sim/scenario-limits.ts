/** Limits for a simulation: the shipped table with an overlay over it, for the values the seed does not show. */
import { TollgateError } from '../core/errors.js';
import { type Issue, issuesError, type SourcePosition } from '../core/issue.js';
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

/** One overlay of the limits table, and where each of its fields was written. */
export interface LimitsOverlay {
  readonly value: unknown;
  /** Position of the field at `path` of `value` (its nearest ancestor when absent). */
  readonly locate?: (path: readonly (string | number)[]) => SourcePosition;
}

/** True when `value` has a field at every step of `path`. */
function holds(value: unknown, path: readonly (string | number)[]): boolean {
  let here: unknown = value;
  for (const key of path) {
    if (typeof here !== 'object' || here === null || !Object.hasOwn(here, key)) return false;
    here = (here as Raw)[key];
  }
  return true;
}

/**
 * The issues placed in the overlay that wrote their field (the last to write it wins, as in the
 * merge), or null when one was written by none (the shipped table's own field, a whole object).
 */
function placed(issues: readonly Issue[], overlays: readonly LimitsOverlay[]): Issue[] | null {
  const found: Issue[] = [];
  for (const issue of issues) {
    let from: LimitsOverlay | undefined;
    for (let at = overlays.length - 1; at >= 0 && from === undefined; at--) {
      const overlay = overlays[at]!;
      if (overlay.locate !== undefined && holds(overlay.value, issue.path)) from = overlay;
    }
    if (from === undefined) return null;
    found.push({ ...issue, source: from.locate!(issue.path) });
  }
  return found;
}

/**
 * The limits table merged with each overlay in turn (the fields of data/limits.yaml, any subset:
 * `{ secondary: { content: { per_minute: 40 } } }`), checked against the limits schema, compiled.
 * `origin` names where the overlays come from in the one-line error. Throws TOLLGATE_INVALID_INPUT.
 * @example
 * import { limitsWithOverlays } from './scenario-limits.js';
 * limitsWithOverlays([{ value: { secondary: { content: { per_minute: 40 } } } }], 'slow-content.yaml').secondary.content.perMinute; // 40
 */
export function limitsWithOverlays(overlays: readonly LimitsOverlay[], origin: string): LimitsConfig {
  let merged: unknown = limitsTable;
  for (const overlay of overlays) merged = deepMerge(merged, overlay.value);
  // Validated as one document: every problem named by its field, all at once. The text is JSON
  // whatever the overlays were written in, so the JSON parser reads it.
  const document = parseJsonSource(JSON.stringify(merged), origin);
  const issues = validateDocument(document, 'limits');
  const where = issues.length > 0 ? placed(issues, overlays) : null;
  if (where !== null) throw issuesError('TOLLGATE_INVALID_INPUT', where, origin);
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
 * // readLimitsOverlay('search-limits.yaml').value -> { primary: { resources: { search: { authenticated: 10 } } } }
 */
export function readLimitsOverlay(file: string): LimitsOverlay {
  const document = parseDataFile(readTextFile(file), file);
  if (document.issues.length > 0) throw issuesError('TOLLGATE_INVALID_INPUT', document.issues, `\`${file}\``);
  if (!isObject(document.value))
    throw new TollgateError(
      'TOLLGATE_INVALID_INPUT',
      `${file}: a limits overlay is a mapping of data/limits.yaml's fields`,
    );
  return { value: document.value, locate: document.locate };
}

/**
 * A scenario's limits: its own `limits` (an overlay, or a file relative to the scenario), then
 * `--limits FILE`, over the shipped table; a bad field is named at its line and column.
 */
export function scenarioLimits(
  own: unknown,
  here: (path: string) => string,
  scenario: {
    readonly file: string;
    readonly locate: (path: readonly (string | number)[]) => SourcePosition;
  },
  limitsFile: string | undefined,
): LimitsConfig {
  const overlays: LimitsOverlay[] = [];
  const origins: string[] = [];
  if (own !== undefined) {
    overlays.push(
      typeof own === 'string'
        ? readLimitsOverlay(here(own))
        : { value: own, locate: (path) => scenario.locate(['limits', ...path]) },
    );
    origins.push(typeof own === 'string' ? own : `${scenario.file} \`limits\``);
  }
  if (limitsFile !== undefined) {
    overlays.push(readLimitsOverlay(limitsFile));
    origins.push(limitsFile);
  }
  return limitsWithOverlays(overlays, origins.join(' and '));
}
