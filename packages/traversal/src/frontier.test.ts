import type { Neighbor, RelationEdge } from '@mosaic/spec';
import { seededRandom } from '@mosaic/stage-utils/internal';
import { buildHandIndex, type BuildHandIndexOptions } from '@mosaic/testing/hand-built-index';
import { makePolicy } from '@mosaic/testing';
import { describe, expect, it } from 'vitest';
import { bestNeighbors, HubScanArrays } from './frontier.js';
import { FeatureCache } from './path-features.js';
import { buildQuestionSignals } from './question-signals.js';

/** What scoring every relation chooses: the `cap` best scores, ties by position, in list order. */
function bruteForce(list: readonly Neighbor[], score: (edge: RelationEdge) => number, cap: number): Neighbor[] {
  return list
    .map((neighbor, position) => ({ neighbor, position, score: score(neighbor.edge) }))
    .sort((a, b) => b.score - a.score || a.position - b.position)
    .slice(0, cap)
    .sort((a, b) => a.position - b.position)
    .map((entry) => entry.neighbor);
}

/**
 * Scores of relations e0 … e(n − 1) on a coarse grid, so that many tie, and bounds at or above them,
 * some exactly equal.
 */
function randomScores(random: () => number, n: number): { scores: Map<string, number>; bounds: Map<string, number> } {
  const scores = new Map<string, number>();
  const bounds = new Map<string, number>();
  for (let i = 0; i < n; i += 1) {
    const score = Math.floor(random() * 8) / 8;
    scores.set(`e${i}`, score);
    bounds.set(`e${i}`, random() < 0.3 ? score : Math.min(1, score + random() * 0.4));
  }
  return { scores, bounds };
}

function neighbors(n: number): Neighbor[] {
  return Array.from({ length: n }, (_, i) => ({ node: `n${i}`, edge: { id: `e${i}` } as RelationEdge, direction: 'out' }) as Neighbor);
}

describe('bestNeighbors', () => {
  it('keeps what scoring every relation keeps (ties included), scoring exactly only the relations whose bound can still win', () => {
    const random = seededRandom(7);
    let exact = 0;
    let offered = 0;
    let fewer = 0;
    for (let round = 0; round < 300; round += 1) {
      const n = 1 + Math.floor(random() * 120);
      const cap = 1 + Math.floor(random() * 30);
      const { scores, bounds } = randomScores(random, n);
      const scored: string[] = [];
      const features = {
        relationScore: (edge: RelationEdge) => {
          scored.push(edge.id);
          return scores.get(edge.id)!;
        },
        relationScoreBound: (edge: RelationEdge) => bounds.get(edge.id)!,
      };
      const list = neighbors(n);
      expect(bestNeighbors(features, list, cap)).toEqual(bruteForce(list, (edge) => scores.get(edge.id)!, cap));
      if (n > cap) {
        exact += scored.length;
        offered += n;
        // Never more than one threshold fixed after the `cap` best bounds would score: those `cap`,
        // then every relation whose bound reaches the lowest of their scores.
        const byBound = list.map((_, i) => i).sort((a, b) => bounds.get(`e${b}`)! - bounds.get(`e${a}`)! || a - b);
        const threshold = Math.min(...byBound.slice(0, cap).map((i) => scores.get(`e${i}`)!));
        const fixed = byBound.filter((i, rank) => rank < cap || bounds.get(`e${i}`)! >= threshold).length;
        expect(scored.length).toBeLessThanOrEqual(fixed);
        fewer += scored.length < fixed ? 1 : 0;
      }
    }
    // The bounds spare most exact scores (an implementation that scores everything fails here), and
    // the rising threshold spares more than a fixed one in some rounds.
    expect(exact).toBeLessThan(offered * 0.8);
    expect(fewer).toBeGreaterThan(0);
  });

  it('with a scan bound, scores only the `scan` best bounds and keeps the best of those', () => {
    const random = seededRandom(11);
    for (let round = 0; round < 200; round += 1) {
      const n = 2 + Math.floor(random() * 120);
      const cap = 1 + Math.floor(random() * 10);
      const scan = cap + Math.floor(random() * 40);
      const { scores, bounds } = randomScores(random, n);
      const scored = new Set<string>();
      const features = {
        relationScore: (edge: RelationEdge) => {
          scored.add(edge.id);
          return scores.get(edge.id)!;
        },
        relationScoreBound: (edge: RelationEdge) => bounds.get(edge.id)!,
      };
      const list = neighbors(n);
      // The reference: the `scan` best bounds (ties by position), then the best scores among them.
      const eligible = new Set(
        list
          .map((neighbor, position) => ({ id: neighbor.edge.id, position, bound: bounds.get(neighbor.edge.id)! }))
          .sort((a, b) => b.bound - a.bound || a.position - b.position)
          .slice(0, scan)
          .map((entry) => entry.id),
      );
      const expected = bruteForce(
        list.filter((neighbor) => eligible.has(neighbor.edge.id)),
        (edge) => scores.get(edge.id)!,
        cap,
      );
      expect(bestNeighbors(features, list, cap, scan)).toEqual(n <= cap ? list : expected);
      for (const id of scored) expect(eligible.has(id)).toBe(true);
    }
  }, 30_000);

  it('with arrays lent by HubScanArrays (reused over hubs of every size, left holding the last scan), keeps what fresh arrays keep', () => {
    const random = seededRandom(23);
    const arrays = new HubScanArrays();
    let largest = 0;
    for (let round = 0; round < 200; round += 1) {
      // Sizes up and down, so that a scan reads arrays a larger one filled.
      const n = 2 + Math.floor(random() * (round % 2 === 0 ? 400 : 60));
      const cap = 1 + Math.floor(random() * 12);
      const scan = random() < 0.5 ? Number.POSITIVE_INFINITY : cap + Math.floor(random() * 50);
      const { scores, bounds } = randomScores(random, n);
      const features = { relationScore: (edge: RelationEdge) => scores.get(edge.id)!, relationScoreBound: (edge: RelationEdge) => bounds.get(edge.id)! };
      const list = neighbors(n);
      expect(bestNeighbors(features, list, cap, scan, arrays)).toEqual(bestNeighbors(features, list, cap, scan));
      if (n > cap) largest = Math.max(largest, n);
    }
    // Grown to the largest hub scanned (doubling from 1,024), not once per scan.
    expect(arrays.size).toBeGreaterThanOrEqual(3 * largest);
    expect(arrays.size).toBeLessThanOrEqual(3 * Math.max(1024, 2 * largest));
  });

  it("with the traversal's own r(e) (dense, BM25 and passage terms), chooses as scoring every relation does", async () => {
    const relations: BuildHandIndexOptions['relations'] = Array.from({ length: 60 }, (_, i) => ({
      id: `r${String(i).padStart(2, '0')}`,
      source: 'H',
      target: `L${i}`,
      label: ['cures fever', 'borders the harbour', 'treats pain', 'trades with', 'reduces fever in children', 'faces'][i % 6],
    }));
    const index = await buildHandIndex({
      entities: [{ id: 'H', name: 'Harbour' }, ...Array.from({ length: 60 }, (_, i) => ({ id: `L${i}`, name: `Leaf ${i}` }))],
      relations,
      lexical: true,
    });
    const question = 'What cures fever?';
    const [queryVector] = await index.encoder.encode([question]);
    const context = { question: { text: question }, queryVector, policy: makePolicy() };
    const signals = await buildQuestionSignals({ index, context, lexicalWeight: 0.8, contextWeight: 0.5 });
    expect(typeof signals.relationScores.upperBound).toBe('function');
    const list = (await index.graph.neighbors(['H'])).get('H')!;
    expect(list).toHaveLength(60);
    const reference = new FeatureCache(signals, { hubDegree: 10, maxDegree: 60 }, new Set());
    for (const neighbor of list) expect(reference.relationScoreBound(neighbor.edge)).toBeGreaterThanOrEqual(reference.relationScore(neighbor.edge));
    for (const cap of [1, 5, 12, 24, 59]) {
      const features = new FeatureCache(signals, { hubDegree: 10, maxDegree: 60 }, new Set());
      expect(bestNeighbors(features, list, cap)).toEqual(bruteForce(list, (edge) => reference.relationScore(edge), cap));
    }
  });
});
