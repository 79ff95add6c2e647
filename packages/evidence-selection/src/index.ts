export { createEvidenceSelector, type EvidenceSelectionTrace, type EvidenceSelectorOptions, type EvidenceSelectorTuning } from './evidence-selector.js';
