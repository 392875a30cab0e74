// The types each entry publishes, pinned as exports.test.ts pins its values: a type a user can name
// is part of the contract too, so adding or removing one is always deliberate (CHANGELOG.md lists
// every removal). Read from the source entries, which tsup turns into the .d.ts files one for one.
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ENTRY_POINTS } from '../../entry-points.js';
import { entryProgram } from '../support/entry-program.js';

const root = join(import.meta.dirname, '..', '..');
const { program, checker } = entryProgram(Object.values(ENTRY_POINTS));

/** The names an entry exports as types only: `export type { A }`, `type A`, or a type declaration. */
function typeNames(path: string): string[] {
  const file = program.getSourceFile(join(root, path))!;
  return checker
    .getExportsOfModule(checker.getSymbolAtLocation(file)!)
    .filter((exported) => {
      const specifier = exported.declarations?.find(ts.isExportSpecifier);
      if (specifier !== undefined && (specifier.isTypeOnly || specifier.parent.parent.isTypeOnly))
        return true;
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      return (target.flags & ts.SymbolFlags.Value) === 0;
    })
    .map((exported) => exported.name)
    .sort();
}

const subpath = (entry: string) => (entry === 'index' ? 'tollgate' : `tollgate/${entry}`);

describe('the types of the package', () => {
  it('pins every entry', () => {
    expect(Object.keys(ENTRY_POINTS).map(subpath).sort()).toEqual(Object.keys(PINNED_TYPES).sort());
  });

  it.each(Object.entries(ENTRY_POINTS))('exports exactly the pinned types from `%s`', (entry, path) => {
    expect(typeNames(path)).toEqual(PINNED_TYPES[subpath(entry)]);
  });
});

const PINNED_TYPES: Record<string, string[]> = {
  tollgate: [
    'AdmitRequest',
    'CompleteFacts',
    'Decision',
    'EndpointMatch',
    'FailureOptions',
    'Gate',
    'GateAnswer',
    'GateOptions',
    'IdentitySnapshot',
    'LimitedResponse',
    'Limiter',
    'LimiterOptions',
    'LimitsStore',
    'LookupToken',
    'MemoryStore',
    'MemoryStoreOptions',
    'Policy',
    'PolicyMatch',
    'PolicyOptions',
    'PolicyRequest',
    'PolicyTables',
    'ReasonCode',
    'RequestFacts',
    'ResourceContext',
    'Settle',
    'Token',
    'TokenKind',
    'TollgateErrorCode',
    'UnmatchedRequest',
    'Verdict',
    'WindowMode',
    'WindowedRule',
  ],
  'tollgate/policy': [
    'Addition',
    'BareToken',
    'CompiledScopes',
    'Decision',
    'EndpointEntry',
    'EndpointMatch',
    'HeaderNames',
    'HttpMethod',
    'IdentityFacts',
    'Level',
    'PermissionInfo',
    'PermissionToken',
    'Policy',
    'PolicyMatch',
    'PolicyOptions',
    'PolicyRequest',
    'PolicyTables',
    'RawEndpoint',
    'RawListing',
    'RawPermissionsTable',
    'RawScopeRequirement',
    'RawScopesTable',
    'ReasonCode',
    'Requirement',
    'ResolvedPolicyOptions',
    'ResourceContext',
    'ScopeRequirement',
    'ScopedToken',
    'TableSource',
    'TableSources',
    'Token',
    'TokenKind',
    'UnmatchedRequest',
  ],
  'tollgate/routes': ['RouteInput', 'RouteIssue', 'RouteMatch', 'RouteTree'],
  'tollgate/limits': [
    'AdmitEvent',
    'AsyncLimitsStore',
    'CallerClass',
    'CallerFacts',
    'CallerLimit',
    'CompleteEvent',
    'IdentityState',
    'InstallationFacts',
    'InstallationLimitRule',
    'LimitAlgorithm',
    'LimitBody',
    'LimitCharge',
    'LimitEvent',
    'LimitLine',
    'LimitReason',
    'LimitRule',
    'LimitedResponse',
    'LimitsCaller',
    'LimitsConfig',
    'LimitsHeaderNames',
    'LimitsIdentity',
    'LimitsResource',
    'LimitsStore',
    'PointCostFacts',
    'PrimaryLimits',
    'RateLimitBody',
    'RateLimitResourceStatus',
    'ReleaseEvent',
    'ResourceLimit',
    'RetryDelayOptions',
    'RuleCharge',
    'RuleStanding',
    'StepResult',
    'SyncLimitsStore',
    'Ticket',
    'TicketLedger',
    'Verdict',
    'WindowMode',
    'WindowedRule',
  ],
  'tollgate/tables': ['Issue', 'LoadedText', 'SchemaName', 'SourceDocument', 'SourcePosition'],
  'tollgate/fetch': ['FetchHandler', 'FetchOptions'],
  'tollgate/node': ['Next'],
  'tollgate/fastify': [],
  'tollgate/check': [
    'Call',
    'CallResult',
    'CheckOptions',
    'CheckReport',
    'Grant',
    'OctokitRoute',
    'Origin',
    'PermissionNeed',
    'ReadSources',
    'ScopeNeed',
    'SourceCalls',
    'Verdict',
    'WorkflowAdvice',
    'WorkflowCheckOptions',
    'WorkflowGrant',
  ],
  'tollgate/redis': ['RedisClientLike', 'RedisStore', 'RedisStoreOptions'],
  'tollgate/sim': [
    'Behaviour',
    'BindingRule',
    'CallerGrant',
    'CallerOrigin',
    'CallerReport',
    'CallerSpec',
    'CallerToken',
    'Distribution',
    'ExpandedPool',
    'ExpandedScenario',
    'Gauge',
    'GaugeUnit',
    'HowMany',
    'IdentityReport',
    'MixEntry',
    'OctokitSettings',
    'PlannerAdvice',
    'PoliteComparison',
    'Pool',
    'PoolSummary',
    'ReadScenarioOptions',
    'RecommendOptions',
    'Recommendation',
    'RetrySettings',
    'RuleReport',
    'Scenario',
    'Schedule',
    'Series',
    'SimulateOptions',
    'SimulationReport',
    'WindowedAdvice',
  ],
};
