export { createSeedSelector, type SeedComponents, type SeedSelectionTrace, type SeedSelectorOptions } from './seed-selector.js';
