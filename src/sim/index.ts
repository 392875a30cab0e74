/** tollgate/sim: traffic against the limits in virtual time. */
export { createEventQueue, type EventQueue } from './event-queue.js';
// sim-planner: schedules, pools, the planner's advice.
export {
  type CallerOrigin,
  type ExpandedPool,
  type ExpandedScenario,
  expandScenario,
} from './expand-scenario.js';
export { jsonChunks } from './json-chunks.js';
export { adviceText, poolText } from './plan-text.js';
export type {
  BindingRule,
  HowMany,
  PlannerAdvice,
  PoliteComparison,
  WindowedAdvice,
} from './planner-types.js';
export type { Pool } from './pool.js';
export { type PoolSummary, poolSummaries } from './pool-summary.js';
export { type Distribution, type Random, sample, seededRandom } from './random.js';
export { type ReadScenarioOptions, readScenario } from './read-scenario.js';
export { type Recommendation, type RecommendOptions, recommend } from './recommend.js';
export { htmlReport } from './report-html.js';
export { textReport } from './report-text.js';
export type {
  Gauge,
  GaugeUnit,
  IdentityReport,
  RuleReport,
  Series,
} from './report-types.js';
export {
  BEHAVIOURS,
  type Behaviour,
  type CallerSpec,
  type CallerToken,
  type MixEntry,
  type OctokitSettings,
  type RetrySettings,
  type Scenario,
} from './scenario.js';
export type { Schedule } from './schedule.js';
export { DURATION_FORMS, durationSeconds } from './schedule-duration.js';
export {
  type CallerGrant,
  type CallerReport,
  type SimulateOptions,
  type SimulationReport,
  simulate,
} from './simulate.js';
