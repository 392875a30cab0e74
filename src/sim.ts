/** tollgate/sim: traffic against the limits in virtual time. */
export {
  type CallerOrigin,
  type ExpandedPool,
  type ExpandedScenario,
  expandScenario,
} from './sim/expand-scenario.js';
export { jsonChunks } from './sim/json-chunks.js';
export { adviceText, poolText } from './sim/plan-text.js';
export type {
  BindingRule,
  HowMany,
  PlannerAdvice,
  PoliteComparison,
  WindowedAdvice,
} from './sim/planner-types.js';
export type { Pool } from './sim/pool.js';
export { type PoolSummary, poolSummaries } from './sim/pool-summary.js';
export type { Distribution } from './sim/random.js';
export { type ReadScenarioOptions, readScenario } from './sim/read-scenario.js';
export { type Recommendation, type RecommendOptions, recommend } from './sim/recommend.js';
export { htmlReport } from './sim/report-html.js';
export { textReport } from './sim/report-text.js';
export type {
  Gauge,
  GaugeUnit,
  IdentityReport,
  RuleReport,
  Series,
} from './sim/report-types.js';
export type {
  Behaviour,
  CallerSpec,
  CallerToken,
  MixEntry,
  OctokitSettings,
  RetrySettings,
  Scenario,
} from './sim/scenario.js';
export type { Schedule } from './sim/schedule.js';
export { DURATION_FORMS, durationSeconds } from './sim/schedule-duration.js';
export {
  type CallerGrant,
  type CallerReport,
  type SimulateOptions,
  type SimulationReport,
  simulate,
} from './sim/simulate.js';
