/** tollgate/check: token sufficiency and least privilege for a whole application, ahead of time. */
export type { Call, Origin, SourceCalls, WorkflowGrant } from './check/call.js';
export {
  type CallResult,
  type CheckOptions,
  type CheckReport,
  checkCalls,
  type Grant,
  type Verdict,
} from './check/check-calls.js';
export { checkWorkflowJob, type WorkflowAdvice, type WorkflowCheckOptions } from './check/check-workflow.js';
export { ghApiCalls } from './check/gh-api.js';
export { leastPermissions, leastScopes, type PermissionNeed, type ScopeNeed } from './check/least-grant.js';
export { type OctokitRoute, octokitRoutes } from './check/octokit-routes.js';
export { overlaySkeleton } from './check/overlay-skeleton.js';
export { type ReadSources, readSources } from './check/read-sources.js';
export { githubReport } from './check/report-github.js';
export { jsonReport } from './check/report-json.js';
export { junitReport } from './check/report-junit.js';
export { sarifReport } from './check/report-sarif.js';
export { textReport } from './check/report-text.js';
export { scanSource } from './check/scan-source.js';
export { WORKFLOW_KEYS } from './check/workflow-keys.js';
