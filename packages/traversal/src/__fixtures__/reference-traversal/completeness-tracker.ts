// Test oracle: this file as it was before the performance work (commit d6aeda6), unchanged.
// The optimised implementation must return deep-equal results; see performance-equivalence.test.ts.

import type { EdgeFeatures, NodeFeatures } from './path-features.js';

/**
 * Cumulative evidence completeness c_d. With targets or facets in the policy:
 * (covered targets + covered facets) / (targets + facets), where a target is covered once an
 * accumulated node matches it and a facet once an accumulated edge (label, keywords,
 * description, dense similarity) or node (name, description) matches it. Without targets and
 * facets: the share of seeds with at least one accumulated incident edge (seeds explored).
 */
export class CompletenessTracker {
  private readonly targets: boolean[];
  private readonly facets: boolean[];
  private readonly exploredSeeds = new Set<string>();

  constructor(
    targetCount: number,
    facetCount: number,
    private readonly seeds: ReadonlySet<string>,
  ) {
    this.targets = new Array<boolean>(targetCount).fill(false);
    this.facets = new Array<boolean>(facetCount).fill(false);
  }

  addNode(node: NodeFeatures): void {
    node.targetMatch.forEach((match, i) => {
      if (match) this.targets[i] = true;
    });
    node.facetMatch.forEach((match, i) => {
      if (match) this.facets[i] = true;
    });
  }

  addEdge(edge: EdgeFeatures, source: string, target: string): void {
    edge.facetMatch.forEach((match, i) => {
      if (match) this.facets[i] = true;
    });
    if (this.seeds.has(source)) this.exploredSeeds.add(source);
    if (this.seeds.has(target)) this.exploredSeeds.add(target);
  }

  /** Indexes of the covered targets. */
  coveredTargets(): number[] {
    return this.targets.flatMap((covered, i) => (covered ? [i] : []));
  }

  /** Indexes of the covered facets. */
  coveredFacets(): number[] {
    return this.facets.flatMap((covered, i) => (covered ? [i] : []));
  }

  value(): number {
    const total = this.targets.length + this.facets.length;
    if (total > 0) return (this.coveredTargets().length + this.coveredFacets().length) / total;
    if (this.seeds.size === 0) return 0;
    return this.exploredSeeds.size / this.seeds.size;
  }
}
