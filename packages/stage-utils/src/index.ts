// The shared code of Mosaic's stages. Stages may import @mosaic/spec and this package, never each other.
export { matchStem, matchTokens, normalizeLabel, tokenContainment, tokenJaccard } from './match-tokens.js';
export {
  METRIC_STOP_WORDS,
  joinSplitWords,
  metricStem,
  metricTokenSet,
  metricTokenWords,
  metricTokens,
  splitJoinedWords,
  wordsAsWritten,
  writtenApartIn,
} from './metric-tokens.js';
export { passageRelevance, PASSAGE_SPANS, type PassageRelevance, type PassageRelevanceOptions } from './passage-relevance.js';
export { entityText, relationText } from './index-texts.js';
export { cutWindows, DEFAULT_WINDOW_SIZE, DEFAULT_WINDOW_STRIDE, type TextWindow, type WindowGeometry } from './cut-windows.js';
export { windowsOfSpan } from './span-windows.js';
export { lineAnchors, locateSpan, packOutlineAnchors, sectionsWithin } from './locate-span.js';
export { scoreSentences, splitSentences, type SentenceScores, type TextSentence } from './sentence-match.js';
