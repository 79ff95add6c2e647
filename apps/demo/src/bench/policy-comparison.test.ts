import { describe, expect, it } from 'vitest';
import { comparePolicies, type ScoredSystem } from './policy-comparison.js';
import { policyLine } from './write-report.js';

const scores = (entries: Record<string, number | null>) => new Map(Object.entries(entries));

describe('comparePolicies', () => {
  const narrow: ScoredSystem = { name: 'fixed-narrow', reranker: 'hybrid', fixedPolicy: 'narrow', scores: scores({ a: 0.5, b: 1, c: 0, d: 1, e: null }) };
  const wide: ScoredSystem = { name: 'fixed-wide', reranker: 'hybrid', fixedPolicy: 'wide', scores: scores({ a: 1, b: 0.5, c: 0, d: 1, e: 1 }) };
  const adaptive: ScoredSystem = { name: 'adaptive', reranker: 'hybrid', scores: scores({ a: 0.5, b: 1, c: 0.25, d: 1, e: 1 }) };

  it('scores the oracle, the means and the head-to-heads over the questions every system scored', () => {
    const [c, ...rest] = comparePolicies([narrow, wide, adaptive]);
    expect(rest).toEqual([]);
    // e is left out: fixed-narrow has no score for it.
    expect(c.questions).toBe(4);
    expect(c.reranker).toBe('hybrid');
    expect(c.fixed).toEqual(['fixed-narrow', 'fixed-wide']);
    expect(c.er['fixed-narrow']).toBeCloseTo(2.5 / 4, 12);
    expect(c.er['fixed-wide']).toBeCloseTo(2.5 / 4, 12);
    expect(c.er.adaptive).toBeCloseTo(2.75 / 4, 12);
    // Per question the better of the two: 1, 1, 0, 1.
    expect(c.oracleEr).toBeCloseTo(3 / 4, 12);
    // A tie in mean ER goes to the first fixed policy in bench order.
    expect(c.bestFixed).toBe('fixed-narrow');
    expect(c.questionAware).toEqual([
      {
        name: 'adaptive',
        versus: [
          { fixed: 'fixed-narrow', better: 1, equal: 3, worse: 0 },
          { fixed: 'fixed-wide', better: 2, equal: 1, worse: 1 },
        ],
      },
    ]);
  });

  it('compares only systems of one reranker, and needs a fixed policy and a second system', () => {
    const fusionAdaptive: ScoredSystem = { ...adaptive, name: 'adaptive+fusion', reranker: 'fusion' };
    const biWide: ScoredSystem = { ...wide, name: 'fixed-wide+bi', reranker: 'bi-encoder' };
    const groups = comparePolicies([wide, fusionAdaptive, biWide, adaptive]);
    // fusion has no fixed policy, bi-encoder only one system: only hybrid is compared.
    expect(groups.map((g) => g.reranker)).toEqual(['hybrid']);
    expect(groups[0].fixed).toEqual(['fixed-wide']);
    expect(groups[0].questionAware.map((s) => s.name)).toEqual(['adaptive']);
    expect(groups[0].questions).toBe(5);
    // Two fixed policies and no question-aware system: still the oracle.
    const [fixedOnly] = comparePolicies([narrow, wide]);
    expect(fixedOnly.questionAware).toEqual([]);
    expect(fixedOnly.oracleEr).toBeCloseTo(0.75, 12);
    expect(comparePolicies([adaptive])).toEqual([]);
    // No question that every system scored: nothing to compare.
    expect(
      comparePolicies([
        { ...narrow, scores: scores({ a: null }) },
        { ...adaptive, scores: scores({ a: 1 }) },
      ]),
    ).toEqual([]);
  });

  it('prints the oracle and each question-aware system against the best fixed policy', () => {
    const [c] = comparePolicies([narrow, wide, adaptive]);
    expect(policyLine(c)).toBe(
      'Policy choice (hybrid reranker, 4 questions): the best of fixed-narrow, fixed-wide per question would hold 75.0 (fixed-narrow alone 62.5); adaptive 68.8, against fixed-narrow higher on 1, equal on 3, lower on 0 questions.',
    );
    const [single] = comparePolicies([wide, adaptive]);
    expect(policyLine(single)).toBe(
      'Policy choice (hybrid reranker, 5 questions): fixed-wide holds 70.0; adaptive 75.0, against fixed-wide higher on 2, equal on 2, lower on 1 questions.',
    );
  });
});
