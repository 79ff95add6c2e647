export { startOpenAIStub } from './openai-stub.js';
export type { OpenAIStub, OpenAIStubOptions, StubReply, StubRequest, StubResponder } from './openai-stub.js';
export { queueReplies } from './queue-replies.js';
export type { QueueRepliesOptions } from './queue-replies.js';
export { hashEmbedding } from './hash-embedding.js';
export {
  FIXTURE_DOCUMENTS,
  FIXTURE_QUESTIONS,
  FIXTURE_MULTI_HOP_IDS,
  writeFixtureCorpus,
} from './fixture-corpus.js';
export type {
  FixtureDocument,
  FixtureQuestion,
  FixtureQuestionType,
  FixtureCorpusFiles,
  WriteFixtureCorpusOptions,
} from './fixture-corpus.js';
export { FIXTURE_GRAPH, fixtureExtraction, fixtureExtractionResponder } from './fixture-graph.js';
export type { FixtureEntity, FixtureRelation } from './fixture-graph.js';
export { seededRandom } from '@mosaic/stage-utils/internal';
export { makePolicy } from './make-policy.js';
export { DATASETS_DIR_VARIABLE, datasetPath, datasetsDirectory, findRepositoryRoot } from './repository-paths.js';
export {
  RECORDED_INDEX_SETTINGS,
  fixtureEntityId,
  fixtureRelationId,
  loadFixtureIndex,
  recordedIndexData,
} from './recorded-index.js';
export type { LoadFixtureIndexOptions, RecordedIndexData, RecordedSegment } from './recorded-index.js';
export { createHashingEncoder, hashingVector } from './hashing-encoder.js';
export type { HashingEncoderOptions } from './hashing-encoder.js';
export type { HandBuiltIndex } from './hand-built-index.js';
