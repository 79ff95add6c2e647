import type { Policy } from '@mosaic/spec';

/** Test helper: the Table 3 defaults with overrides (not exported from the package). */
export function makePolicy(overrides: Partial<Policy> = {}): Policy {
  return {
    seedLimit: 7,
    seedQueryMode: 'full',
    selectionMode: 'relation-only',
    maxDepth: 3,
    beamWidth: 8,
    anchorStrength: 0,
    useConnector: false,
    stopRegime: 'shallow',
    evidenceCount: 8,
    minEvidence: 3,
    adaptiveFinalEvidence: false,
    targetEntities: [],
    targetFacets: [],
    retrievalRisk: '',
    rationale: '',
    compactQuery: '',
    perTargetQueries: [],
    ...overrides,
  };
}
