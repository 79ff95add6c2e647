import { existsSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AnalyzerGraphView, Policy } from '@mosaic/spec';
import { CONTROL_FIELDS, DEFAULT_POLICY, policySchema } from '@mosaic/policy-schema';
import { datasetPath } from '@mosaic/testing';
import { createOfflineAnalyzer } from './offline-analyzer.js';
import { summarizePolicies } from './policy-log.js';

const analyzer = createOfflineAnalyzer();
const analyze = async (text: string, graph?: AnalyzerGraphView) => (await analyzer.analyze({ question: { text }, graph })).policy;

/** A small in-memory graph view: names → ids, undirected edges, BFS for `connected`. */
function graphView(options: { names: Record<string, string>; edges: [string, string][] }): AnalyzerGraphView & { calls: string[] } {
  const calls: string[] = [];
  const adjacency = new Map<string, string[]>();
  for (const [a, b] of options.edges) {
    adjacency.set(a, [...(adjacency.get(a) ?? []), b]);
    adjacency.set(b, [...(adjacency.get(b) ?? []), a]);
  }
  return {
    calls,
    async lookup(mentions) {
      calls.push(`lookup:${mentions.join('|')}`);
      const out = new Map<string, string>();
      for (const m of mentions) {
        const id = options.names[m.toLowerCase()];
        if (id) out.set(m, id);
      }
      return out;
    },
    async connected(a, b, hops) {
      calls.push(`connected:${a}-${b}@${hops}`);
      let frontier = new Set([a]);
      const seen = new Set([a]);
      for (let h = 0; h < hops; h++) {
        const next = new Set<string>();
        for (const n of frontier) for (const m of adjacency.get(n) ?? []) if (!seen.has(m)) seen.add(m), next.add(m);
        if (next.has(b)) return true;
        frontier = next;
      }
      return false;
    },
  };
}

/** Fair skin and BCC three hops apart. */
const THREE_HOPS: [string, string][] = [
  ['n:skin', 'n:a'],
  ['n:a', 'n:b'],
  ['n:b', 'n:bcc'],
];

describe('createOfflineAnalyzer: the six considerations', () => {
  it('keeps the Table 3 defaults when no signal fires', async () => {
    const p = await analyze('Which systemic therapy may be considered for BCC?');
    for (const field of CONTROL_FIELDS) {
      expect(p[field]).toBe(DEFAULT_POLICY[field]);
    }
    expect(p.rationale).toMatch(/no clear signal/);
  });

  it('directness: "what is X" → depth 2, shallow stop, small seed budget', async () => {
    const p = await analyze('What is stomach cancer?');
    expect(p).toMatchObject({ maxDepth: 2, stopRegime: 'shallow', seedLimit: 5 });
    expect(p.targetEntities).toEqual(['stomach cancer']);
  });

  it('mediatedness: "how does X affect Y" → depth 4, later stop, connector between the targets', async () => {
    const p = await analyze('How does smoking affect cervical cancer risk?');
    expect(p.maxDepth).toBeGreaterThanOrEqual(4);
    expect(['medium', 'deep']).toContain(p.stopRegime);
    expect(p.useConnector).toBe(true);
    expect(p.targetEntities).toEqual(['smoking', 'cervical cancer']);
  });

  it('mediatedness: a stated sequence → deep stop', async () => {
    const p = await analyze('How does stomach cancer typically progress from a precancerous state to metastatic disease?');
    expect(p.maxDepth).toBe(4);
    expect(p.stopRegime).toBe('deep');
  });

  it('output cardinality: a list question raises the evidence cap and floor', async () => {
    const p = await analyze('What are the risk factors and symptoms of primary bone cancer?');
    expect(p.evidenceCount).toBeGreaterThanOrEqual(12);
    expect(p.minEvidence).toBeGreaterThanOrEqual(5);
    expect(p.seedLimit).toBeGreaterThan(DEFAULT_POLICY.seedLimit);
    expect(p.adaptiveFinalEvidence).toBe(true);
    expect(p.targetFacets).toEqual(expect.arrayContaining(['risk', 'symptoms']));
  });

  it('output cardinality: a single-facet list stays shallow without reservation', async () => {
    const p = await analyze('What are common symptoms of basal cell carcinoma?');
    expect(p).toMatchObject({ maxDepth: 2, evidenceCount: 12, minEvidence: 5, adaptiveFinalEvidence: false });
  });

  it('seed coverage: a comparison seeds per target, with connector and reservation', async () => {
    const p = await analyze('Which diagnostic methods are common to both adrenocortical carcinoma (ACC) and pheochromocytoma?');
    expect(p.seedQueryMode).toBe('per-target');
    expect(p.perTargetQueries).toHaveLength(2);
    expect(p.perTargetQueries[0]).toContain('adrenocortical carcinoma');
    expect(p.perTargetQueries[0]).toContain('ACC');
    expect(p.useConnector).toBe(true);
    expect(p.adaptiveFinalEvidence).toBe(true);
    expect(p.seedLimit).toBeGreaterThanOrEqual(10);
  });

  it('anchoring need: an exact stage or code → anchorStrength ≥ 0.4', async () => {
    expect((await analyze('What defines Stage 0 colon cancer?')).anchorStrength).toBeGreaterThanOrEqual(0.4);
    expect((await analyze('Which drugs target BCR::ABL1-positive B-ALL?')).anchorStrength).toBeGreaterThanOrEqual(0.4);
    expect((await analyze('What is colon cancer?')).anchorStrength).toBe(0);
  });

  it('anchoring is weaker when the question is mediated', async () => {
    const direct = await analyze('What is the treatment for Stage 4 NSCLC?');
    const mediated = await analyze('Why does Stage 4 NSCLC lead to brain metastasis?');
    expect(mediated.anchorStrength).toBeGreaterThanOrEqual(0.4);
    expect(mediated.anchorStrength).toBeLessThan(direct.anchorStrength);
  });

  it('identity–relation dependence: names and identifiers → hybrid selection', async () => {
    expect((await analyze('Who wrote a poem about Mary Mundy at the Old Inn?')).selectionMode).toBe('hybrid');
    expect((await analyze('Which therapy targets an IDH1 mutation?')).selectionMode).toBe('hybrid');
    expect((await analyze('What are common symptoms of bone cancer?')).selectionMode).toBe('relation-only');
  });

  it('completeness and tasks: a writing task gets the broad budget and a compact seed query', async () => {
    const p = await analyze(
      'You are a general practitioner drafting a discharge summary for a patient treated for basal cell carcinoma on the scalp. Transform the clinical facts into a formal discharge summary, ensuring inclusion of risk factors, clinical presentation, diagnostic workup, treatment, and follow-up recommendations.',
    );
    expect(p).toMatchObject({ seedLimit: 12, evidenceCount: 16, minEvidence: 8, adaptiveFinalEvidence: true, seedQueryMode: 'compact', stopRegime: 'medium' });
    expect(p.compactQuery).toContain('basal cell carcinoma');
    expect(p.compactQuery.split(' ').length).toBeLessThanOrEqual(16);
  });

  it('explains itself: rationale names the considerations that fired, retrievalRisk the risks', async () => {
    const p = await analyze('How does the BCR::ABL1 fusion gene relate to both the diagnosis and treatment of CML?');
    expect(p.rationale).toMatch(/mediatedness/);
    expect(p.rationale).toMatch(/anchoring-need/);
    expect(p.retrievalRisk).toMatch(/intermediate/);
  });
});

describe('createOfflineAnalyzer: graph view', () => {
  const names = { 'fair skin': 'n:skin', bcc: 'n:bcc', 'basal cell carcinoma': 'n:bcc', uv: 'n:uv', smoking: 'n:smoke', 'lung cancer': 'n:lung' };

  it('turns the connector on and deepens when resolved targets are not within 2 hops', async () => {
    const graph = graphView({
      names,
      edges: THREE_HOPS,
    });
    const without = await analyze('Is fair skin linked to BCC?');
    const withGraph = await analyze('Is fair skin linked to BCC?', graph);
    expect(without.useConnector).toBe(false);
    expect(withGraph.useConnector).toBe(true);
    expect(withGraph.maxDepth).toBeGreaterThanOrEqual(4);
    expect(withGraph.rationale).toMatch(/not within reach/);
    expect(graph.calls).toContain('connected:n:skin-n:bcc@2');
  });

  it('leaves the connector off when the targets are adjacent, and seeds per target', async () => {
    const graph = graphView({ names, edges: [['n:skin', 'n:bcc']] });
    const p = await analyze('Is fair skin linked to BCC?', graph);
    expect(p.useConnector).toBe(false);
    expect(p.seedQueryMode).toBe('per-target');
  });

  it('resolves targets through their parenthesised aliases', async () => {
    const graph = graphView({ names: { bcc: 'n:bcc', uv: 'n:uv' }, edges: [] });
    const p = await analyze('Is UV exposure or fair skin worse for basal cell skin tumour (BCC) and UV?', graph);
    expect(graph.calls[0]).toContain('BCC');
    expect(p.retrievalRisk).not.toMatch(/no target resolved/);
  });

  it('reports when no target resolves', async () => {
    const graph = graphView({ names: {}, edges: [] });
    const p = await analyze('What is stomach cancer?', graph);
    expect(p.retrievalRisk).toMatch(/no target resolved/);
  });

  it('honours connectorHops', async () => {
    const graph = graphView({
      names,
      edges: THREE_HOPS,
    });
    const far = createOfflineAnalyzer({ connectorHops: 3 });
    const p = (await far.analyze({ question: { text: 'Is fair skin linked to BCC?' }, graph })).policy;
    expect(p.useConnector).toBe(false);
  });
});

describe('createOfflineAnalyzer: contract', () => {
  it('returns a validated Analysis with no validation changes', async () => {
    const analysis = await analyzer.analyze({ question: { id: 'q1', text: 'What are the two main diagnostic methods for CML?' } });
    expect(analysis.analyzer).toBe('offline');
    expect(analysis.changes).toEqual([]);
    expect(analysis.latencyMs).toBeGreaterThanOrEqual(0);
    expect(policySchema.safeParse(analysis.policy).success).toBe(true);
  });

  it('is deterministic', async () => {
    const q = { text: 'How do risk factors and symptoms together contribute to the early detection of CLL?' };
    const a = await analyzer.analyze({ question: q });
    const b = await createOfflineAnalyzer().analyze({ question: q });
    expect(a.policy).toEqual(b.policy);
  });

  it('throws typed errors: aborted signal, bad question, bad options', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(analyzer.analyze({ question: { text: 'What is BCC?' }, abortSignal: controller.signal })).rejects.toMatchObject({
      name: 'MosaicAbortedError',
    });
    // @ts-expect-error a number where the question text belongs (an untyped caller)
    await expect(analyzer.analyze({ question: { text: 42 } })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError' });
    expect(() => createOfflineAnalyzer({ connectorHops: 0 })).toThrow(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
  });

  it('never throws on arbitrary text and always returns an in-range policy', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 400 }), fc.string({ unit: 'grapheme', maxLength: 200 })), async (text) => {
        const { policy } = await analyzer.analyze({ question: { text } });
        expect(policySchema.safeParse(policy).success).toBe(true);
      }),
      { numRuns: 200, seed: 9 },
    );
  });
});

// The Medical dev questions from ../shared of the repository root (MOSAIC_DATASETS_DIR overrides the
// folder); its latency figure is printed by `pnpm --filter @mosaic/analyzer bench`, not asserted. A
// checkout without the datasets beside it (a clone in a scratch folder) skips the test and says so;
// MOSAIC_REQUIRE_DATASETS=1 makes their absence a failure instead.
const MEDICAL_DEV = datasetPath('medical_questions.dev.json');
const datasetsMissing = !existsSync(MEDICAL_DEV) && process.env.MOSAIC_REQUIRE_DATASETS !== '1';
if (datasetsMissing) console.warn(`[offline analyzer] acceptance test skipped: ${MEDICAL_DEV} not found (set MOSAIC_DATASETS_DIR)`);

describe.skipIf(datasetsMissing)('acceptance: Medical dev questions', () => {
  it('produces a diverse, non-collapsed policy distribution', async () => {
    const questions = JSON.parse(readFileSync(MEDICAL_DEV, 'utf8')) as { id: string; question: string }[];
    const fresh = createOfflineAnalyzer();
    const analyses = [];
    for (const q of questions) analyses.push(await fresh.analyze({ question: { id: q.id, text: q.question } }));
    const summary = summarizePolicies(analyses);
    console.info(`[offline analyzer, Medical dev] ${JSON.stringify(summary)}`);
    expect(summary.count).toBe(questions.length);
    expect(summary.uniquePolicies).toBeGreaterThanOrEqual(12);
    for (const depth of [2, 3, 4]) expect(summary.depthDistribution[depth] ?? 0).toBeGreaterThanOrEqual(0.15);
    expect(summary.activation.connector).toBeGreaterThanOrEqual(0.15);
    expect(summary.activation.connector).toBeLessThanOrEqual(0.6);
    expect(summary.activation.adaptiveEvidence).toBeGreaterThanOrEqual(0.15);
    expect(summary.activation.adaptiveEvidence).toBeLessThanOrEqual(0.6);
    for (const a of analyses) expect(policySchema.safeParse(a.policy as Policy).success).toBe(true);
  });
});
