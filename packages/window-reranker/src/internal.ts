/**
 * Building blocks of @mosaic/window-reranker, for the monorepo's own packages, tests and tools.
 * Not part of the stable API: names and shapes may change in any release, without a major
 * version. Build on what `@mosaic/window-reranker` exports.
 */
export { cutWindows, DEFAULT_WINDOW_SIZE, DEFAULT_WINDOW_STRIDE, windowsOfSpan, type TextWindow, type WindowGeometry } from '@mosaic/stage-utils';
export { collectCandidateWindows, type CandidateWindow, type CandidateWindows } from './candidate-windows.js';
export { cosine, denseScores, type DenseScores, type DenseSource } from './dense-scores.js';
export { lexicalScores, type LexicalScores, type LexicalSource } from './lexical-scores.js';
export { rankWindows, compareRankedWindows, resolveTopN, type Ranking } from './rank-windows.js';
export { createEvidenceWindowReranker, type EvidenceWindowRerankerSettings } from './evidence-window-reranker.js';
export { fusionCandidates } from './fusion-reranker.js';
export { checkDiversity, diversify, sharedText, type Diversification } from './diversify.js';
export { rerankers } from './rerankers.js';
export { focusWindows, type FocusedWindow, type FocusWindowsOptions } from './focus-windows.js';
export { corpusWordCount, corpusWordWeight, createHeadingMatcher, headingsOf, rarity, type WordWeight } from './heading-match.js';
