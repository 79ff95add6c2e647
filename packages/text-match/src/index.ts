export { contentTokens, normalizeLabel, stem, tokenContainment, tokenJaccard } from './text-tokens.js';
