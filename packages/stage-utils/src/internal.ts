/**
 * Building blocks of @mosaic/stage-utils, for the monorepo's own packages, tests and tools.
 * Not part of the stable API: names and shapes may change in any release, without a major
 * version. Build on what `@mosaic/stage-utils` exports.
 */
export { canonicalPathKey, comparePaths, compareStrings, forwardFirst, pathId, reversedPathId } from './path-identity.js';
export { bestScoredPositions, bestScoredPositionsByLabel, firstInOrder, firstPositions, insertPosition } from './top-k.js';
export { countEveryItem, labelMapOf, readEveryItem, scoreEveryItem, scoresEveryItem, searchWholeQuery, shareLabelMap } from './lexical-items.js';
export { checkWindowGeometry } from './cut-windows.js';
export { VECTOR_KINDS, type VectorKind } from './vector-kinds.js';
export { STOP_MIN_COMPLETENESS, STOP_THRESHOLDS } from './stop-thresholds.js';
export { seededRandom } from './seeded-random.js';
export { clamp01 } from './clamp.js';
export { escapeRegExp } from './escape-regexp.js';
export { WeightedLru } from './weighted-lru.js';
export { ChunkDocuments } from './chunk-documents.js';
export { readNodeNames } from './node-names.js';
export { checkTuning } from './check-tuning.js';
export { chunkScoresByNumber, forEachPassageChunk, incidentPassageChunkNumbers, passageChunkNumbers, type ChunkScoresByNumber } from './passage-relevance.js';
export { AsciiTokenNumbers, doubled, TokenNumbering } from './match-tokens.js';
export {
  chunkIdsDigest,
  createSentenceTokens,
  decodeSentenceTokenParts,
  decodeSentenceTokens,
  encodeSentenceTokens,
  MATCH_TOKENS_ID,
  matchSentenceTokens,
  sentenceTokensFromParts,
  SentenceTokenTable,
  type SentenceTokenParts,
} from './sentence-tokens.js';
