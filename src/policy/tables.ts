/** Table shapes: the raw YAML form (snake_case, as written) and the compiled form the evaluator reads. */

import type { LimitCharge, LimitsResource } from '../core/limit-charge.js';
import type { RouteTree } from '../routes/route-types.js';
import type { HttpMethod, Level, Requirement, ScopeRequirement, TokenKind } from './types.js';

/** A classic requirement in a table: a requirement, `not_shown` (the seeds do not say) or `none`. */
export type RawScopeRequirement = ScopeRequirement | 'not_shown' | 'none';

/** One endpoint as written in `data/permissions.yaml` (or an overlay). */
export interface RawEndpoint {
  readonly fine_grained?: Requirement | 'none';
  readonly classic?: RawScopeRequirement;
  readonly classic_private?: RawScopeRequirement;
  readonly tokens?: readonly TokenKind[];
  readonly tokens_shown?: boolean;
  readonly public?: boolean;
  readonly owner_only?: boolean;
  readonly additional?: boolean;
  readonly cost?: number;
  readonly content?: boolean;
  readonly resource?: LimitsResource;
  readonly counts_against_primary?: boolean;
  readonly page_size?: { readonly default: number; readonly max: number };
  readonly listed?: readonly RawListing[];
  readonly source?: string;
}

/** One listing of an endpoint in seed 001 (category, level, star, entries, note, seed line). */
export interface RawListing {
  readonly permission: string;
  readonly level: Level;
  readonly star?: boolean;
  readonly entries?: number;
  readonly note?: string;
  readonly line: number;
}

/** `data/permissions.yaml` (an overlay has the same form; `rules` and `defaults` optional). */
export interface RawPermissionsTable {
  readonly version: 1;
  readonly rules?: {
    readonly cost?: Readonly<Partial<Record<HttpMethod, number>>>;
    readonly content?: { readonly methods: readonly HttpMethod[]; readonly last_segments: readonly string[] };
    readonly multi_segment_params?: readonly { readonly before: string; readonly param: string }[];
    readonly encoded_slash_params?: readonly string[];
  };
  readonly defaults?: {
    readonly classic?: RawScopeRequirement;
    readonly tokens?: readonly TokenKind[];
    readonly public?: boolean;
    readonly owner_only?: boolean;
    readonly resource?: LimitsResource;
  };
  readonly endpoints: Readonly<Record<string, RawEndpoint>>;
}

/** `data/scopes.yaml`. */
export interface RawScopesTable {
  readonly version: 1;
  readonly scopes: Readonly<Record<string, { readonly implies: readonly string[] }>>;
  readonly permissions: Readonly<
    Record<
      string,
      {
        readonly name: string;
        readonly owner: 'repository' | 'organization';
        readonly levels: readonly Level[];
      }
    >
  >;
}

/** A classic requirement after compilation: `null` when not shown or when no classic token can call it. */
export interface CompiledScopes {
  readonly requirement: ScopeRequirement | null;
  readonly shown: boolean;
}

/** One endpoint, compiled: everything the evaluator and the limits need, no YAML left. */
export interface EndpointEntry {
  /** `METHOD /template`. */
  readonly key: string;
  readonly method: HttpMethod;
  readonly template: string;
  /** `null` when no fine-grained permission reaches the endpoint. */
  readonly fineGrained: Requirement | null;
  readonly classic: CompiledScopes;
  /** The classic requirement for private resources. */
  readonly classicPrivate: CompiledScopes;
  readonly tokens: readonly TokenKind[];
  readonly tokensShown: boolean;
  readonly public: boolean;
  readonly ownerOnly: boolean;
  readonly additional: boolean;
  /** What a request of the endpoint charges the limits (resource, points, content, primary). */
  readonly charge: LimitCharge;
  readonly pageSize: { readonly default: number; readonly max: number } | null;
  /** True when the path names no resource (no parameter), e.g. `GET /rate_limit`: visibility does not apply. */
  readonly resourceless: boolean;
  /** The parameters naming the repository the request is about (`owner`/`repo` or the template's). */
  readonly repositoryParams: readonly [string, string] | null;
  readonly listed: readonly RawListing[];
  readonly source: string;
  /** Precomputed header values. */
  readonly acceptedPermissionsHeader: string | null;
  readonly acceptedScopesHeader: string | null;
  readonly acceptedScopesPrivateHeader: string | null;
}

/** A fine-grained permission of the catalog. */
export interface PermissionInfo {
  readonly slug: string;
  readonly name: string;
  readonly owner: 'repository' | 'organization';
  readonly levels: readonly Level[];
}

/** The compiled tables: the endpoint list, the route tree over it, scopes and permissions. */
export interface PolicyTables {
  readonly endpoints: readonly EndpointEntry[];
  readonly routes: RouteTree;
  /** Each scope mapped to itself plus every scope it implies, transitively. */
  readonly scopeClosure: ReadonlyMap<string, ReadonlySet<string>>;
  readonly permissions: ReadonlyMap<string, PermissionInfo>;
}
