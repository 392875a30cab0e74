/** tollgate/sim: traffic against the limits in virtual time. */
export { createEventQueue, type EventQueue } from './event-queue.js';
export { type Distribution, type Random, sample, seededRandom } from './random.js';
export { readScenario } from './read-scenario.js';
export { type Recommendation, recommend } from './recommend.js';
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
  type RetrySettings,
  type Scenario,
} from './scenario.js';
export {
  type CallerGrant,
  type CallerReport,
  type SimulateOptions,
  type SimulationReport,
  simulate,
} from './simulate.js';
