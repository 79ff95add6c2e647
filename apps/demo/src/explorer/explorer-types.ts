// The explorer's wire format: what the server answers and the browser client draws.
// Type-only (shared by src/explorer/*.ts and the bundled client).
import type {
  Answer,
  EffortCounts,
  EvidenceUnit,
  PathRole,
  PathScoreTerms,
  Policy,
  PolicyControls,
  Seed,
  SourceLocation,
  StageTimings,
  StopReason,
  StopRegime,
  ValidationChange,
} from '@mosaic/spec';
import type { PolicyRanges } from '@mosaic/policy-schema';

/** The policy the explorer asks for: the analyzer's ('adaptive') or one of the fixed baselines. */
export type PolicyRequest = 'adaptive' | 'narrow' | 'medium' | 'wide';

export const POLICY_REQUESTS: readonly PolicyRequest[] = ['adaptive', 'narrow', 'medium', 'wide'];

/** The body of POST /api/ask, after validation. */
export interface AskRequest {
  question: string;
  policy: PolicyRequest;
  /** Corpus name (default: the server's default corpus). */
  corpus?: string;
}

/** Every error answer: `{ error: ExplorerErrorBody }`. */
export interface ExplorerErrorBody {
  /** The typed error's name (e.g. 'MosaicExplorerRequestError', 'MosaicApiCallError'). */
  name: string;
  /** A stable code for the kind of failure (e.g. 'body-too-large', 'invalid-json', 'invalid-field', 'stage-failed'). */
  code: string;
  /** A readable, one-paragraph message. */
  message: string;
  /** The request field at fault, when there is one. */
  field?: string;
  /** The pipeline stage that failed ('retrieval' covers analyzer, encoder and index; 'generator'). */
  stage?: 'retrieval' | 'generator' | 'index';
  status: number;
}

/** A node of the explored subgraph. */
export interface ExplorerNode {
  id: string;
  name: string;
  type: string;
  /** First 240 characters of the entity description. */
  description: string;
  degree: number;
  /** degree ≥ the graph's hub degree. */
  hub: boolean;
  /** Selected as a seed. */
  seed: boolean;
  /** 1-based seed rank (by the seed list's order), when a seed. */
  seedRank?: number;
  seedScore?: number;
  /**
   * Indices into policy.targetEntities this node stands for: the seed's per-target query, or a
   * target whose words the node name contains (or vice versa).
   */
  targetIndices: number[];
  /** First traversal depth whose kept beam reached the node (0 for seeds). */
  depth: number;
  /** Roles of the selected paths through the node. */
  roles: PathRole[];
}

/** An edge of the explored subgraph. */
export interface ExplorerEdge {
  id: string;
  source: string;
  target: string;
  label: string;
  /** First depth whose kept beam holds the edge. */
  depth: number;
  /** Depths whose kept beam holds the edge. */
  beamDepths: number[];
  /** On a connector path (joining two seeds' regions) at some depth. */
  connector: boolean;
  /** On an outward beam path at some depth. */
  beam: boolean;
  /** Roles of the selected paths that use the edge (empty when not selected). */
  roles: PathRole[];
}

/** A kept beam path at one depth. */
export interface ExplorerBeamPath {
  id: string;
  nodes: string[];
  edges: string[];
  seed: string;
  origin: 'beam' | 'connector';
  score: number;
  terms: PathScoreTerms;
}

/** One depth of the traversal and its stop decision. */
export interface ExplorerDepth {
  depth: number;
  candidates: number;
  connectorCandidates: number;
  beam: ExplorerBeamPath[];
  newNodes: number;
  newEdges: number;
  /** Novelty gain g_d. */
  gain: number;
  /** ε of the stop regime. */
  threshold: number;
  /** Cumulative completeness c_d. */
  completeness: number;
  /** Completeness a low-gain stop needs. */
  minCompleteness: number;
  /** Targets / facets covered so far (when the traverser reports them). */
  coveredTargets?: string[];
  coveredFacets?: string[];
  stop: boolean;
  /** Why the traversal went on or stopped here, in words. */
  decision: string;
}

export interface ExplorerPath {
  id: string;
  role: PathRole;
  rank: number;
  score: number;
  origin: 'beam' | 'connector';
  depth: number;
  seed: string;
  nodes: string[];
  edges: string[];
  /** Node names along the path. */
  names: string[];
  /** Edge labels along the path. */
  labels: string[];
  terms: PathScoreTerms;
}

export interface ExplorerEvidence extends EvidenceUnit {
  /** 1-based ranks of the windows this unit led to. */
  windowRanks: number[];
}

/** A run of window text: plain, inside a source chunk of some evidence units, or a matched evidence term. */
export interface WindowSegment {
  text: string;
  /** Evidence units whose source chunk covers this run. */
  evidenceIds: string[];
  /** Evidence unit whose term (entity name) this run matches. */
  termOf?: string;
}

export interface ExplorerWindow {
  /** 1-based rank (the number citations use). */
  rank: number;
  id: string;
  documentId: string;
  start: number;
  end: number;
  /** Where the window sits in its source: document title, section trail, line or page span (when the index kept outlines). */
  source?: SourceLocation;
  score: number;
  scores?: Record<string, number>;
  evidenceIds: string[];
  segments: WindowSegment[];
  /** Cited by the answer. */
  cited: boolean;
}

export interface ExplorerAnalysis {
  analyzer: string;
  /** Substantive validation changes (clamped, rejected, dropped, coerced). */
  changes: ValidationChange[];
  /** Fields validation filled with defaults. */
  defaulted: string[];
  fallback?: { from: string; reason: string };
  cacheHit?: boolean;
  latencyMs: number;
}

/** The answer of POST /api/ask. */
export interface ExplorerAskResponse {
  corpus: string;
  question: string;
  policyRequest: PolicyRequest;
  policy: Policy;
  /** Table 3 defaults, to show each control next to its default. */
  defaults: PolicyControls;
  analysis: ExplorerAnalysis;
  seeds: Seed[];
  seedQueries: string[];
  graph: { nodes: ExplorerNode[]; edges: ExplorerEdge[]; hubDegree: number; maxDegree: number };
  traversal: {
    depths: ExplorerDepth[];
    stopReason: StopReason;
    depthReached: number;
    pathsEvaluated: number;
    weights: Record<string, number>;
  };
  paths: ExplorerPath[];
  evidence: ExplorerEvidence[];
  windows: ExplorerWindow[];
  answer: Answer;
  timings: StageTimings;
  effort: EffortCounts;
  /** Readable notes on fallbacks (analyzer or generator failed and a fallback answered). */
  notices: string[];
}

/** GET /api/policy-defaults. */
export interface PolicyDefaultsResponse {
  controls: (keyof PolicyControls)[];
  defaults: PolicyControls;
  ranges: PolicyRanges;
  fixed: Record<'narrow' | 'medium' | 'wide', PolicyControls>;
  stopThresholds: Record<StopRegime, number>;
  minCompleteness: number;
}

/** GET /api/corpora. */
export interface CorporaResponse {
  corpora: { name: string; examples: string[] }[];
  defaultCorpus: string;
  limits: { maxBodyBytes: number; maxQuestionChars: number };
}
