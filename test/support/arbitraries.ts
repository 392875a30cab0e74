// fast-check arbitraries over the shipped tables: endpoints, tokens, contexts, concrete paths.
import fc from 'fast-check';
import type { EndpointEntry, PolicyTables } from '../../src/policy/tables.js';
import type { Level, Token } from '../../src/policy/types.js';

const staticSegments = (tables: PolicyTables) =>
  new Set(
    tables.endpoints.flatMap((e) => e.template.split('/').filter((s) => s !== '' && !s.startsWith('{'))),
  );

/** A parameter value that cannot be mistaken for a static segment: letters and digits, any case. */
export function paramValue(tables: PolicyTables): fc.Arbitrary<string> {
  const avoid = staticSegments(tables);
  return fc
    .stringMatching(/^[A-Za-z0-9][A-Za-z0-9_-]{0,11}$/)
    .filter((value) => !avoid.has(value) && !avoid.has(value.toLowerCase()));
}

/** A concrete path for `entry`, and the params it should decode to. */
export function concretePath(
  tables: PolicyTables,
  entry: EndpointEntry,
): fc.Arbitrary<{ path: string; params: Record<string, string> }> {
  const names = [...entry.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const value = paramValue(tables);
  const multi = fc.array(value, { minLength: 1, maxLength: 3 });
  return fc
    .tuple(
      fc.array(fc.oneof(value, multi), { minLength: names.length, maxLength: names.length }),
      fc.boolean(),
    )
    .map(([values, gitSuffix]) => {
      const params: Record<string, string> = {};
      let path = entry.template;
      names.forEach((name, i) => {
        const last = i === names.length - 1;
        const raw = values[i]!;
        const spans =
          last &&
          /\/(contents|readme|git\/ref|git\/refs|git\/matching-refs)\/\{[^}]+\}$/.test(entry.template);
        const text = Array.isArray(raw) ? (spans ? raw.join('/') : raw[0]!) : raw;
        const encoded = name === 'repo' && gitSuffix ? `${text}.git` : text;
        params[name] = text;
        path = path.replace(`{${name}}`, encoded);
      });
      return { path, params };
    });
}

const LEVEL = fc.constantFrom<Level>('read', 'write');

/** Any token over the catalogs of `tables`. */
export function tokenArbitrary(tables: PolicyTables): fc.Arbitrary<Token> {
  const slugs = [...tables.permissions.keys()];
  const scopes = [...tables.scopeClosure.keys()];
  const permissions = fc.dictionary(fc.constantFrom(...slugs), LEVEL, { maxKeys: 6 });
  const repositories = fc.oneof(
    fc.constant('all' as const),
    fc.subarray(['acme/app', 'acme/other', 'ACME/APP']),
  );
  return fc.oneof(
    fc.record({
      kind: fc.constantFrom('classic' as const, 'oauth-app' as const),
      scopes: fc.subarray(scopes),
    }),
    fc.record({
      kind: fc.constantFrom(
        'fine-grained' as const,
        'app-user' as const,
        'app-installation' as const,
        'workflow' as const,
      ),
      permissions: permissions.map((p) => {
        // Metadata offers only read: a token file could not say `write`.
        if (p.metadata === 'write') p.metadata = 'read';
        return p;
      }),
      repositories,
    }),
    fc.record({ kind: fc.constantFrom('anonymous' as const, 'client-credentials' as const) }),
  );
}

export const contextArbitrary = fc.record({
  visibility: fc.constantFrom('public' as const, 'private' as const),
  organizationOwner: fc.boolean(),
});
