/** tollgate/check: token sufficiency and least privilege for a whole application, ahead of time. */
export type { Call, Origin, SourceCalls, WorkflowGrant } from './call.js';
export { readListCalls, readTextCalls } from './calls-file.js';
export {
  type CallResult,
  type CheckOptions,
  type CheckReport,
  checkCalls,
  type Grant,
  type Verdict,
} from './check-calls.js';
export { checkWorkflowJob, type WorkflowAdvice, type WorkflowCheckOptions } from './check-workflow.js';
export { ghApiCalls } from './gh-api.js';
export { leastPermissions, leastScopes, type PermissionNeed, type ScopeNeed } from './least-grant.js';
export { type OctokitRoute, octokitRoutes } from './octokit-routes.js';
export { readOpenApiCalls } from './openapi.js';
export { overlaySkeleton } from './overlay-skeleton.js';
export { type ReadSources, readSources } from './read-sources.js';
export { githubReport } from './report-github.js';
export { jsonReport } from './report-json.js';
export { junitReport } from './report-junit.js';
export { sarifReport } from './report-sarif.js';
export { grantText, summaryLine } from './report-summary.js';
export { textReport } from './report-text.js';
export { scanSource } from './scan-source.js';
export { DEFAULT_WORKFLOW_PERMISSIONS, readWorkflow } from './workflow.js';
export { WORKFLOW_KEYS } from './workflow-keys.js';
