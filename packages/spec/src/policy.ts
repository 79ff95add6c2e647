/** How the seed query is formed (report §5.3). */
export type SeedQueryMode = 'full' | 'compact' | 'per-target';
/** Entity vs relation contribution to seed scores. */
export type SelectionMode = 'relation-only' | 'hybrid';
/** Low-gain stopping sensitivity (report §5.5). */
export type StopRegime = 'shallow' | 'medium' | 'deep';

/** The executable controls of a per-question policy (report Table 3). */
export interface PolicyControls {
  /** Deduplicated seed budget K (1–15, default 7). */
  seedLimit: number;
  seedQueryMode: SeedQueryMode;
  selectionMode: SelectionMode;
  /** Hard traversal cap D (2–5, default 3). */
  maxDepth: number;
  /** Partial paths kept per depth W (4–12, default 8). */
  beamWidth: number;
  /** Target focus and hub suppression a (0–1, default 0). */
  anchorStrength: number;
  /** Cross-seed connector exploration. */
  useConnector: boolean;
  stopRegime: StopRegime;
  /** Final evidence cap B (5–18, default 8). */
  evidenceCount: number;
  /** Evidence preservation floor L (1–12, default 3). */
  minEvidence: number;
  /** Role-aware path reservation. */
  adaptiveFinalEvidence: boolean;
  /**
   * Baselines only: traverse to maxDepth without the low-gain stop (the report's fixed policies
   * reach their full depth). Not part of the analyzer's schema: validation drops it, so an
   * analyzer can never set it.
   */
  fixedDepth?: boolean;
}

/** Diagnostics the analyzer returns beside the controls; they never bypass validation. */
export interface PolicyDiagnostics {
  targetEntities: string[];
  targetFacets: string[];
  retrievalRisk: string;
  rationale: string;
  /** Compact keyword seed query (used when seedQueryMode is 'compact'). */
  compactQuery: string;
  /** One keyword query per target (used when seedQueryMode is 'per-target'). */
  perTargetQueries: string[];
}

/** A complete, validated policy: controls plus diagnostics. */
export interface Policy extends PolicyControls, PolicyDiagnostics {}

/** One change the validator made to analyzer output. */
export interface ValidationChange {
  field: string;
  kind: 'defaulted' | 'clamped' | 'rejected' | 'dropped' | 'coerced';
  /** The value received (JSON-safe rendering). */
  received: unknown;
  /** The value used instead (undefined when a field was dropped). */
  used: unknown;
  reason: string;
}
