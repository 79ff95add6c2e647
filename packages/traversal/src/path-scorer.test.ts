import { describe, expect, it } from 'vitest';
import type { EdgeFeatures, NodeFeatures } from './path-features.js';
import { specificityOf } from './path-features.js';
import { DEFAULT_PATH_WEIGHTS, anchorAdjustedWeights, extendTermState, pathScore, pathTerms, startTermState, stateTerms } from './path-scorer.js';
import { seededRandom } from '@mosaic/testing';

function node(id: string, overrides: Partial<NodeFeatures> = {}): NodeFeatures {
  return {
    id,
    target: 0,
    targetAffinity: [],
    targetMatch: [],
    facetMatch: [],
    specificity: 1,
    hub: false,
    anchor: false,
    questionLike: false,
    nameKey: id,
    ...overrides,
  };
}

function edge(id: string, overrides: Partial<EdgeFeatures> = {}): EdgeFeatures {
  return { id, relation: 0, fit: 0, facetMatch: [], labelKey: id, tokens: new Set([id]), chunkIds: new Set(), ...overrides };
}

describe('pathTerms', () => {
  it('r̄, t̄ and s̄ are means over edges / nodes', () => {
    const terms = pathTerms(
      [node('a', { target: 1, specificity: 0.2 }), node('b', { target: 0.5, specificity: 0.4 }), node('c', { target: 0, specificity: 0.9 })],
      [edge('e1', { relation: 0.8 }), edge('e2', { relation: 0.2 })],
    );
    expect(terms.relation).toBeCloseTo(0.5);
    expect(terms.target).toBeCloseTo(0.5);
    expect(terms.specificity).toBeCloseTo(0.5);
  });

  it('ā is the share of nodes at most one hop from an anchor along the path', () => {
    const edges = [edge('e1'), edge('e2'), edge('e3')];
    expect(pathTerms([node('s', { anchor: true }), node('x'), node('y'), node('z')], edges).anchor).toBeCloseTo(0.5);
    expect(pathTerms([node('s', { anchor: true }), node('x'), node('y'), node('t', { anchor: true })], edges).anchor).toBe(1);
    expect(pathTerms([node('x'), node('y'), node('z'), node('w')], edges).anchor).toBe(0);
  });

  it('x̄ is fit(e1) for one hop and the mean geometric fit of consecutive hops otherwise', () => {
    expect(pathTerms([node('a'), node('b')], [edge('e1', { fit: 0.7 })]).transition).toBeCloseTo(0.7);
    const terms = pathTerms([node('a'), node('b'), node('c'), node('d')], [edge('e1', { fit: 1 }), edge('e2', { fit: 0.25 }), edge('e3', { fit: 0 })]);
    expect(terms.transition).toBeCloseTo((Math.sqrt(0.25) + 0) / 2);
  });

  it('c̄ is 1 for shared source chunks, else the token Jaccard of consecutive relations; 1 for a single hop', () => {
    expect(pathTerms([node('a'), node('b')], [edge('e1')]).coherence).toBe(1);
    const shared = pathTerms([node('a'), node('b'), node('c')], [edge('e1', { chunkIds: new Set(['c1']) }), edge('e2', { chunkIds: new Set(['c1', 'c2']) })]);
    expect(shared.coherence).toBe(1);
    const lexical = pathTerms(
      [node('a'), node('b'), node('c')],
      [edge('e1', { tokens: new Set(['treat', 'pain']) }), edge('e2', { tokens: new Set(['treat', 'fever', 'cold']) })],
    );
    expect(lexical.coherence).toBeCloseTo(1 / 4);
  });

  it('h̄ counts hubs that are not anchors', () => {
    const terms = pathTerms([node('s', { anchor: true, hub: true }), node('h', { hub: true }), node('x')], [edge('e1'), edge('e2')]);
    expect(terms.hub).toBeCloseTo(1 / 3);
  });

  it('ρ_rep counts hops repeating an earlier label or node name, ρ_ql the share of question-like nodes', () => {
    const terms = pathTerms(
      [node('a', { nameKey: 'aspirin' }), node('b', { nameKey: 'pain' }), node('c', { nameKey: 'aspirin', questionLike: true }), node('d')],
      [edge('e1', { labelKey: 'treats' }), edge('e2', { labelKey: 'causes' }), edge('e3', { labelKey: 'treats' })],
    );
    expect(terms.repetition).toBe(2);
    expect(terms.questionLike).toBeCloseTo(0.25);
    expect(pathTerms([node('a'), node('b')], [edge('e1')]).repetition).toBe(0);
  });
});

describe('specificityOf', () => {
  it('is 1 for isolated nodes, 0 at the maximum degree, and decreasing in between', () => {
    expect(specificityOf(0, 10)).toBe(1);
    expect(specificityOf(10, 10)).toBe(0);
    expect(specificityOf(2, 10)).toBeGreaterThan(specificityOf(5, 10));
    expect(specificityOf(3, 0)).toBe(1);
  });
});

describe('weights', () => {
  it('anchor strength ≥ 0.4 multiplies target, anchor, transition and hub weights by (1 + a)', () => {
    expect(anchorAdjustedWeights(DEFAULT_PATH_WEIGHTS, 0.3)).toEqual(DEFAULT_PATH_WEIGHTS);
    const adjusted = anchorAdjustedWeights(DEFAULT_PATH_WEIGHTS, 0.5);
    expect(adjusted.target).toBeCloseTo(0.225);
    expect(adjusted.anchor).toBeCloseTo(0.15);
    expect(adjusted.transition).toBeCloseTo(0.225);
    expect(adjusted.hub).toBeCloseTo(0.3);
    expect(adjusted.relation).toBe(0.45);
    expect(adjusted.specificity).toBe(0.15);
  });

  it('pathScore is equation (8) with ρ_rep divided by h', () => {
    const terms = { relation: 1, target: 1, specificity: 1, anchor: 1, transition: 1, coherence: 1, hub: 1, repetition: 1, questionLike: 1 };
    const positive = 0.45 + 0.15 + 0.15 + 0.1 + 0.15 + 0.05;
    expect(pathScore(terms, 2, DEFAULT_PATH_WEIGHTS)).toBeCloseTo(positive - 0.2 - 0.5 - 1);
    expect(pathScore(terms, 1, DEFAULT_PATH_WEIGHTS)).toBeCloseTo(positive - 0.2 - 1 - 1);
  });
});

const words = ['heart', 'lung', 'drug', 'pain', 'fever', 'cell', 'gene', 'river', 'king', 'war', 'city', 'treats', 'causes', 'rules'];

describe('incremental path terms', () => {
  it('stateTerms of a path grown hop by hop equals pathTerms of the whole path, bit for bit', () => {
    const random = seededRandom(42);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
    const names = ['a', 'b', 'c', ''];
    const nodeFeatures = (i: number): NodeFeatures => ({
      id: `v${i}`,
      target: random(),
      targetAffinity: [],
      targetMatch: [],
      facetMatch: [],
      specificity: random(),
      hub: random() < 0.3,
      anchor: random() < 0.3,
      questionLike: random() < 0.2,
      nameKey: pick(names),
    });
    const edgeFeatures = (j: number): EdgeFeatures => ({
      id: `e${j}`,
      relation: random(),
      fit: random(),
      facetMatch: [],
      labelKey: pick(['x', 'y', '']),
      tokens: new Set([pick(words), pick(words)]),
      chunkIds: new Set([pick(['c1', 'c2', 'c3', 'c4'])]),
    });
    for (let round = 0; round < 500; round += 1) {
      const h = Math.floor(random() * 7);
      const nodes = Array.from({ length: h + 1 }, (_, i) => nodeFeatures(i));
      const edges = Array.from({ length: h }, (_, j) => edgeFeatures(j));
      let state = startTermState(nodes[0]);
      expect(stateTerms(state)).toEqual(pathTerms(nodes.slice(0, 1), []));
      for (let j = 0; j < h; j += 1) {
        state = extendTermState(state, edges[j], nodes[j + 1]);
        expect(stateTerms(state)).toEqual(pathTerms(nodes.slice(0, j + 2), edges.slice(0, j + 1)));
      }
    }
  });
});
