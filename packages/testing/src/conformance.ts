export {
  createConformanceRun,
  ensure,
  ensureSame,
  ensureAbortHonoured,
  ConformanceViolation,
  type ConformanceCheck,
  type ConformanceReport,
  type ConformanceRun,
} from './conformance-run.js';
export { createStageFixture, STAGE_FIXTURE_POLICY, type StageFixture } from './stage-fixture.js';
