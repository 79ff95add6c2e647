export { createSeedSelector, type SeedComponents, type SeedSelectionTrace, type SeedSelectorOptions, type SeedSelectorTuning } from './seed-selector.js';
