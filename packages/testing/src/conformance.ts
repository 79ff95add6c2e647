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
export { loadFixtureIndex, fixtureEntityId, fixtureRelationId, type LoadFixtureIndexOptions } from './recorded-index.js';
export { createHashingEncoder, type HashingEncoderOptions } from './hashing-encoder.js';
export type { HandBuiltIndex } from './hand-built-index.js';
