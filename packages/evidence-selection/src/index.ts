export { createEvidenceSelector, type EvidenceSelectionTrace, type EvidenceSelectorOptions } from './evidence-selector.js';
