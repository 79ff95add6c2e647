export { contentTokens, normalizeLabel, stem, tokenContainment, tokenJaccard } from './text-tokens.js';
export { passageRelevance, PASSAGE_SPANS, type PassageRelevance } from './passage-relevance.js';
