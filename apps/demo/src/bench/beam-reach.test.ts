import { describe, expect, it } from 'vitest';
import { createOfflineAnalyzer } from '@mosaic/analyzer';
import { createMosaic } from '@mosaic/pipeline';
import { FIXTURE_QUESTIONS } from '@mosaic/testing';
import { loadFixtureIndex } from '@mosaic/testing';
import { createReranker } from '@mosaic/window-reranker';
import { collectCandidateWindows } from '@mosaic/window-reranker/internal';
import { mosaicSystem } from './systems.js';

const medicalQuestions = FIXTURE_QUESTIONS.filter((q) => q.source === 'Medical');

const windowIdsOf = (index: Awaited<ReturnType<typeof loadFixtureIndex>>, evidence: Parameters<typeof collectCandidateWindows>[0]['evidence']) =>
  collectCandidateWindows({ index, evidence }).candidates.map((candidate) => candidate.window.id);

describe('beam reach (bench)', () => {
  it('holds every window the retained evidence reaches, and more when the budget cuts', async () => {
    const index = await loadFixtureIndex({ documents: ['Medical'] });
    expect(medicalQuestions.length).toBeGreaterThan(0);
    let larger = 0;
    for (const policy of ['narrow', 'wide'] as const) {
      const system = mosaicSystem({ name: policy, description: policy, policy, analyzer: createOfflineAnalyzer(), reranker: 'hybrid' });
      for (const q of medicalQuestions) {
        const answer = await system.run({ id: q.id, question: q.question, index, windows: 15 });
        const retained = answer.retrieval!.evidence;
        const beam = answer.beamEvidence!;
        expect(beam.length, q.id).toBeGreaterThanOrEqual(retained.length);
        const beamWindows = new Set(windowIdsOf(index, beam));
        for (const id of windowIdsOf(index, retained)) expect(beamWindows.has(id), `${q.id} (${policy}): window ${id}`).toBe(true);
        if (beamWindows.size > windowIdsOf(index, retained).length) larger += 1;
      }
    }
    // Narrow keeps at most 3 units: on some question the paths it scored reach windows it did not keep.
    expect(larger).toBeGreaterThan(0);
  });

  it('leaves the retrieval as it is: same windows and evidence as the pipeline without the recorder', async () => {
    const index = await loadFixtureIndex({ documents: ['Medical'] });
    const system = mosaicSystem({ name: 'adaptive', description: 'adaptive', analyzer: createOfflineAnalyzer(), reranker: 'hybrid' });
    const plain = createMosaic({ index, analyzer: createOfflineAnalyzer(), reranker: createReranker({ name: 'hybrid' }), windows: 15 });
    for (const q of medicalQuestions) {
      const answer = await system.run({ id: q.id, question: q.question, index, windows: 15 });
      const expected = await plain.retrieve({ question: { id: q.id, text: q.question } });
      expect(answer.retrieval!.windows.map((w) => w.id)).toEqual(expected.windows.map((w) => w.id));
      expect(answer.retrieval!.evidence.map((u) => u.id)).toEqual(expected.evidence.map((u) => u.id));
    }
  });

  it('is empty with the graph off (no traversal ran)', async () => {
    const index = await loadFixtureIndex({ documents: ['Medical'] });
    const system = mosaicSystem({ name: 'off', description: 'off', analyzer: createOfflineAnalyzer(), graph: false });
    const q = medicalQuestions[0]!;
    const answer = await system.run({ id: q.id, question: q.question, index, windows: 15 });
    expect(answer.beamEvidence).toEqual([]);
    expect(answer.line.contexts.length).toBeGreaterThan(0);
  });
});
