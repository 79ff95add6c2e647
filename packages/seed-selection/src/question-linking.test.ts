import type { CorpusIndex, Policy, QueryContext } from '@mosaic/spec';
import { buildHandIndex, twoChapterIndexOptions } from '@mosaic/testing/hand-built-index';
import { describe, expect, it } from 'vitest';
import { makePolicy } from '@mosaic/testing';
import { createSeedSelector } from './seed-selector.js';

async function contextFor(index: CorpusIndex, question: string, policy: Policy): Promise<QueryContext> {
  const [queryVector] = await index.encoder.encode([question]);
  return { question: { text: question }, queryVector, policy };
}

describe('createSeedSelector: linking the question to the graph', () => {
  it('discounts a node the question does not name by the mention factor (1 − μ) + μ·m(v)', async () => {
    const index = await buildHandIndex({
      entities: [
        { id: 'aspirin', name: 'Aspirin' },
        { id: 'info', name: 'General information' },
        { id: 'pain', name: 'Pain' },
      ],
      relations: [
        { id: 'r1', source: 'info', target: 'aspirin', label: 'is available about', description: 'aspirin treats headache pain' },
        { id: 'r2', source: 'aspirin', target: 'pain', label: 'treats' },
      ],
    });
    const policy = makePolicy({ seedLimit: 3 });
    const question = 'What headache pain does aspirin treat?';
    const plain = await createSeedSelector({ tuning: { lexicalWeight: 0, contextWeight: 0, mentionWeight: 0 } }).selectSeeds({
      context: await contextFor(index, question, policy),
      index,
    });
    const linked = await createSeedSelector({ tuning: { lexicalWeight: 0, contextWeight: 0, mentionWeight: 0.5 } }).selectSeeds({
      context: await contextFor(index, question, policy),
      index,
    });
    const score = (selection: typeof plain, id: string) => selection.trace.candidates.find((seed) => seed.nodeId === id)!.score;
    // "General information": m = 0 (neither word is in the question) → half its score.
    expect(score(linked, 'info')).toBeCloseTo(score(plain, 'info') * 0.5, 12);
    // Aspirin and Pain are named: m = 1, unchanged.
    expect(score(linked, 'aspirin')).toBeCloseTo(score(plain, 'aspirin'), 12);
    expect(score(linked, 'pain')).toBeCloseTo(score(plain, 'pain'), 12);
    const components = linked.trace.components;
    expect(components.find((c) => c.nodeId === 'info')!.mention).toBe(0);
    expect(components.find((c) => c.nodeId === 'aspirin')!.mention).toBe(1);
    expect(linked.seeds.at(-1)!.nodeId).toBe('info');
  });

  it('weighs a relation hit by the passage it is stated in (κ), so the chapter the question is about wins', async () => {
    // Two chapters state the same kind of sentence; only one is about the question's subject.
    const index = await buildHandIndex(twoChapterIndexOptions());
    const policy = makePolicy({ seedLimit: 4 });
    const question = 'Which test confirms the findings in CML?';
    const selection = await createSeedSelector({ tuning: { lexicalWeight: 1, mentionWeight: 0, contextWeight: 0.5 } }).selectSeeds({
      context: await contextFor(index, question, policy),
      index,
    });
    const score = (id: string) => selection.trace.candidates.find((seed) => seed.nodeId === id)!.score;
    expect(score('bt')).toBeGreaterThan(score('st'));
    const flat = await createSeedSelector({ tuning: { lexicalWeight: 1, mentionWeight: 0, contextWeight: 0 } }).selectSeeds({
      context: await contextFor(index, question, policy),
      index,
    });
    const flatScore = (id: string) => flat.trace.candidates.find((seed) => seed.nodeId === id)!.score;
    // Without the passage term the two hits differ only by their endpoint names; with it, the CML
    // chapter's sentence pulls clearly ahead.
    expect(score('bt') - score('st')).toBeGreaterThan(flatScore('bt') - flatScore('st') + 0.2);
    expect(() => createSeedSelector({ tuning: { contextWeight: 1.5 } })).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
    expect(() => createSeedSelector({ tuning: { mentionWeight: -0.1 } })).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
  });
});
