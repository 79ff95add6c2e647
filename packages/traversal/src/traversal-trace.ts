import type { DepthTrace, TraversalTrace } from '@mosaic/spec';

/** DepthTrace plus which targets/facets (by policy text) the accumulated evidence covers. */
export interface BeamDepthTrace extends DepthTrace {
  coveredTargets: string[];
  coveredFacets: string[];
  /** Ids of the paths extended at the next depth (the kept beam paths, refilled past dead ends). */
  grown: string[];
  /** Neighbours of this depth's frontier nodes left out by `maxNeighborsPerNode` (never scored as paths). */
  neighborsCut: number;
  /**
   * Of those, the relations of hubs with more than `maxHubScan` relations that were not even
   * scored (only the `maxHubScan` with the best lexical/passage bounds were). 0 on GraphRAG-Bench
   * Medical and Novel, whose largest node has 1,037 relations.
   */
  hubScanCut: number;
  /**
   * New nodes of the connector view's regions left off their frontiers for having more than
   * `maxHubScan` relations (they joined the regions, which do not grow through them). 0 on
   * GraphRAG-Bench Medical and Novel.
   */
  regionHubsHeld: number;
}

/** TraversalTrace plus the thresholds used and every graph call (neighbor batches and node fetches). */
export interface BeamTraversalTrace extends TraversalTrace {
  depths: BeamDepthTrace[];
  stopThreshold: number;
  completenessThreshold: number;
  /** All graph calls: neighbor batches (roundTrips) plus node fetches. */
  graphCalls: number;
  /** Whole-index vector searches made for the question signals (0 with stored vectors). */
  indexSearches: number;
}
