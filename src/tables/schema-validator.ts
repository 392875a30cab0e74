/** JSON Schema validation of tables, overlays and token files: ajv, compiled once per schema. */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import limitsSchema from '../../data/schema/limits.schema.json';
import permissionsSchema from '../../data/schema/permissions.schema.json';
import scenarioSchema from '../../data/schema/scenario.schema.json';
import scopesSchema from '../../data/schema/scopes.schema.json';
import tokenSchema from '../../data/schema/token.schema.json';
import workflowPermissionsSchema from '../../data/schema/workflow-permissions.schema.json';
import type { Issue } from '../core/issue.js';
import { didYouMean } from '../core/suggest.js';
import type { SourceDocument } from './yaml-document.js';

/** The schemas tollgate ships (`tollgate/schema/<name>.schema.json`). */
export type SchemaName = 'permissions' | 'scopes' | 'token' | 'limits' | 'scenario' | 'workflow-permissions';

const extraSchemas = new Map<SchemaName, object>();
const compiled = new Map<SchemaName, ValidateFunction>();
let ajv: Ajv | undefined;

/** Registers (or replaces) a schema compiled lazily by `validateDocument`. */
export function registerSchema(name: SchemaName, schema: object): void {
  extraSchemas.set(name, schema);
  compiled.delete(name);
}

function validatorFor(name: SchemaName): ValidateFunction {
  let validate = compiled.get(name);
  if (validate === undefined) {
    ajv ??= new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, verbose: true });
    const builtIn: Partial<Record<SchemaName, object>> = {
      permissions: permissionsSchema,
      scopes: scopesSchema,
      token: tokenSchema,
      limits: limitsSchema,
      scenario: scenarioSchema,
      'workflow-permissions': workflowPermissionsSchema,
    };
    const schema = extraSchemas.get(name) ?? builtIn[name];
    if (schema === undefined) throw new Error(`schema \`${name}\` is not registered`);
    validate = ajv.compile(schema);
    compiled.set(name, validate);
  }
  return validate;
}

function pointerToPath(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

function where(path: readonly (string | number)[]): string {
  return path.length === 0 ? 'document' : `\`${path.join('.')}\``;
}

function toIssue(error: ErrorObject, document: SourceDocument): Issue {
  const path = pointerToPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const base = { code: 'schema', path };
  switch (error.keyword) {
    case 'additionalProperties': {
      const field = String(params.additionalProperty);
      const known = Object.keys((error.parentSchema as { properties?: object })?.properties ?? {});
      return {
        ...base,
        code: 'unknown_field',
        path: [...path, field],
        message: `unknown field \`${field}\` in ${where(path)}${didYouMean(field, known)}`,
        hint: `valid fields: ${known.join(', ')}`,
        source: document.locate([...path, field], { key: true }),
      };
    }
    case 'enum':
    case 'const': {
      const allowed = (params.allowedValues as unknown[] | undefined) ?? [params.allowedValue];
      const choices = allowed.map(String);
      return {
        ...base,
        code: 'invalid_value',
        message: `invalid value \`${String(error.data)}\` at ${where(path)}${didYouMean(String(error.data), choices)}`,
        hint: `valid choices: ${choices.join(', ')}`,
        source: document.locate(path),
      };
    }
    case 'required':
      return {
        ...base,
        code: 'missing_field',
        message: `missing field \`${String(params.missingProperty)}\` in ${where(path)}`,
        source: document.locate(path),
      };
    case 'propertyNames':
      return {
        ...base,
        code: 'invalid_key',
        path: [...path, String(params.propertyName)],
        message: `invalid key \`${String(params.propertyName)}\` in ${where(path)}`,
        hint: (error.schema as { description?: string; pattern?: string }).pattern
          ? `keys must match ${(error.schema as { pattern: string }).pattern}`
          : 'see the schema for valid keys',
        source: document.locate([...path, String(params.propertyName)], { key: true }),
      };
    case 'oneOf': {
      const description = (error.parentSchema as { description?: string })?.description;
      return {
        ...base,
        message: `invalid value at ${where(path)}`,
        hint: description ?? 'see the schema for the valid forms',
        source: document.locate(path),
      };
    }
    default:
      return {
        ...base,
        message: `${where(path)} ${error.message ?? 'is invalid'}`,
        source: document.locate(path),
      };
  }
}

/**
 * Validates a parsed document against one of tollgate's schemas; returns every problem (`allErrors`).
 * @example
 * import { parseSourceDocument, validateDocument } from 'tollgate/tables';
 * validateDocument(parseSourceDocument('kind: clasic\n', 'token.yaml'), 'token');
 * // [{ code: 'invalid_value', message: 'invalid value `clasic` at `kind` (did you mean `classic`?)', ... }]
 */
export function validateDocument(document: SourceDocument, schema: SchemaName): Issue[] {
  if (document.issues.length > 0) return [...document.issues];
  const validate = validatorFor(schema);
  if (validate(document.value)) return [];
  const errors = validate.errors ?? [];
  // A failed oneOf also reports each branch's failure at the same place; keep only the oneOf's
  // one-line summary there (deeper errors inside a branch still say what is wrong).
  const oneOfAt = new Map(
    errors.filter((e) => e.keyword === 'oneOf').map((e) => [e.instancePath, e.schemaPath]),
  );
  const kept = errors.filter((error) => {
    if (error.keyword === 'oneOf') return true;
    for (const [instancePath, schemaPath] of oneOfAt) {
      const base = schemaPath.replace(/\/oneOf$/, '');
      if (error.instancePath === instancePath && error.schemaPath.startsWith(base)) return false;
    }
    // propertyNames failures come with a generic companion error on the same key.
    return !(error.keyword === 'pattern' && error.propertyName !== undefined);
  });
  const seen = new Set<string>();
  return kept
    .map((error) => toIssue(error, document))
    .filter((issue) => {
      const key = `${issue.path.join('\u0000')}|${issue.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}
