import type { CorpusIndex, Policy, QueryContext, ScoredPath, Seed } from '@mosaic/spec';
import { buildHandIndex, type BuildHandIndexOptions } from '@mosaic/testing/hand-built-index';
import { describe, expect, it } from 'vitest';
import { createEvidenceSelector } from './evidence-selector.js';
import { makePolicy } from '@mosaic/testing';

const terms = { relation: 0, target: 0, specificity: 0, anchor: 0, transition: 0, coherence: 0, hub: 0, repetition: 0, questionLike: 0 };

function path(nodes: string[], edges: string[], score: number): ScoredPath {
  const id = nodes.flatMap((node, i) => (i < edges.length ? [node, edges[i]] : [node])).join('|');
  return { id, nodes, edges, score, terms, seed: nodes[0], origin: 'beam', depth: edges.length };
}

async function contextFor(index: CorpusIndex, question: string, policy: Policy): Promise<QueryContext> {
  const [queryVector] = await index.encoder.encode([question]);
  return { question: { text: question }, queryVector, policy };
}

// One chunk, four sentences; offsets are into the chunk's text.
const sentences = [
  'Aspirin treats headache pain.', // 0
  'Aspirin thins the blood of older patients.', // 1
  'Aspirin can irritate the stomach lining.', // 2
  'Headache pain often follows poor sleep.', // 3
];
const text = sentences.join(' ');
const spanOf = (k: number) => {
  const start = text.indexOf(sentences[k]);
  return { chunkId: 'd#0', start, end: start + sentences[k].length };
};

/** The span of `sentence` inside a one-chunk document's text. */
function sentenceIn(chunkId: string, chunkText: string, sentence: string) {
  const start = chunkText.indexOf(sentence);
  return { chunkId, start, end: start + sentence.length };
}

const fixture: BuildHandIndexOptions = {
  documents: [{ id: 'd', text }],
  chunks: [{ id: 'd#0', documentId: 'd', start: 0, end: text.length, text }],
  entities: [
    { id: 'a', name: 'Aspirin', chunkIds: ['d#0'], spans: [spanOf(0), spanOf(1), spanOf(2)] },
    { id: 'h', name: 'headache pain', chunkIds: ['d#0'], spans: [spanOf(0), spanOf(3)] },
    { id: 'b', name: 'blood', chunkIds: ['d#0'], spans: [spanOf(1)] },
    { id: 's', name: 'stomach lining', chunkIds: ['d#0'], spans: [spanOf(2)] },
    { id: 'p', name: 'poor sleep', chunkIds: ['d#0'], spans: [spanOf(3)] },
  ],
  relations: [
    { id: 'ah', source: 'a', target: 'h', label: 'treats', chunkIds: ['d#0'], spans: [spanOf(0)] },
    { id: 'ab', source: 'a', target: 'b', label: 'thins', chunkIds: ['d#0'], spans: [spanOf(1)] },
    { id: 'as', source: 'a', target: 's', label: 'irritates', chunkIds: ['d#0'], spans: [spanOf(2)] },
    { id: 'hp', source: 'h', target: 'p', label: 'follows', chunkIds: ['d#0'], spans: [spanOf(3)] },
  ],
};
const seeds: Seed[] = [{ nodeId: 'a', name: 'Aspirin', entityScore: 1, relationScore: 1, score: 1, query: 'q' }];
const paths = [path(['a', 'h'], ['ah'], 0.9), path(['a', 'b'], ['ab'], 0.8), path(['a', 's'], ['as'], 0.7), path(['a', 'h', 'p'], ['ah', 'hp'], 0.6)];

describe('createEvidenceSelector: sentence grounding', () => {
  it('gives every unit the sentences it stands on; an entity keeps the mentions that best match the question', async () => {
    const index = await buildHandIndex(fixture);
    const context = await contextFor(index, 'Does aspirin irritate the stomach?', makePolicy({ evidenceCount: 18, minEvidence: 0 }));
    const result = await createEvidenceSelector({ dedupeSentences: false, tuning: { spansPerEntity: 1 } }).selectEvidence({ context, index, paths, seeds });
    const unit = (id: string) => result.units.find((candidate) => candidate.id === id)!;
    expect(unit('relation:ab').spans).toEqual([spanOf(1)]);
    expect(unit('relation:hp').spans).toEqual([spanOf(3)]);
    // Aspirin has three mentions; the one sharing most question tokens (irritate, stomach) is kept.
    expect(unit('entity:a').spans).toEqual([spanOf(2)]);
    const two = await createEvidenceSelector({ dedupeSentences: false, tuning: { spansPerEntity: 2 } }).selectEvidence({ context, index, paths, seeds });
    // Ties (sentences 0 and 1 share only 'aspirin') go to corpus order; spans come back in corpus order.
    expect(two.units.find((candidate) => candidate.id === 'entity:a')!.spans).toEqual([spanOf(0), spanOf(2)]);
  });

  it("with spanContextWeight, a sentence in the question's passage wins over one that shares a word more elsewhere", async () => {
    // Two guides; "Risk factors" is mentioned in both. The bladder sentence shares more words with
    // the question (risk, factors, cancer) than the mouth sentence (risk, factors), but the mouth
    // guide is the passage the question is about.
    const mouth = 'Mouth cancer basics. Mouth cancer starts in the lips, gums or tongue of the mouth. Risk factors include tobacco use.';
    const bladder = 'Bladder basics. The bladder stores urine. Risk factors for cancer vary between people.';
    const inMouth = sentenceIn('m#0', mouth, 'Risk factors include tobacco use.');
    const inBladder = sentenceIn('b#0', bladder, 'Risk factors for cancer vary between people.');
    const guides = await buildHandIndex({
      documents: [
        { id: 'm', text: mouth },
        { id: 'b', text: bladder },
      ],
      chunks: [
        { id: 'm#0', documentId: 'm', start: 0, end: mouth.length, text: mouth },
        { id: 'b#0', documentId: 'b', start: 0, end: bladder.length, text: bladder },
      ],
      entities: [
        { id: 'r', name: 'risk factors', chunkIds: ['m#0', 'b#0'], spans: [inBladder, inMouth] },
        { id: 't', name: 'tobacco use', chunkIds: ['m#0'], spans: [inMouth] },
      ],
      relations: [{ id: 'rt', source: 'r', target: 't', label: 'include', chunkIds: ['m#0'], spans: [inMouth] }],
      lexical: true,
    });
    const question = 'What are the risk factors for mouth cancer?';
    const context = await contextFor(guides, question, makePolicy({ evidenceCount: 4, minEvidence: 0 }));
    const riskPaths = [path(['r', 't'], ['rt'], 0.9)];
    const riskSeeds: Seed[] = [{ nodeId: 'r', name: 'risk factors', entityScore: 1, relationScore: 1, score: 1, query: question }];
    const spansOfRisk = async (spanContextWeight: number) => {
      const result = await createEvidenceSelector({ dedupeSentences: false, tuning: { spansPerEntity: 1, spanContextWeight } }).selectEvidence({
        context,
        index: guides,
        paths: riskPaths,
        seeds: riskSeeds,
      });
      return { spans: result.units.find((unit) => unit.id === 'entity:r')!.spans, weight: result.trace.spanContextWeight };
    };
    expect(await spansOfRisk(0)).toEqual({ spans: [inBladder], weight: 0 });
    expect(await spansOfRisk(3)).toEqual({ spans: [inMouth], weight: 3 });
  });

  it("with spanRelevanceFloor, an entity grounds only in passages relevant to the question; its best sentence and a relation's sentences stay", async () => {
    const mouth = 'Mouth cancer basics. Mouth cancer risk factors include tobacco use.';
    const bladder = 'Bladder basics. Tobacco use harms the bladder.';
    const garden = 'Gardening basics. Tomatoes need sun. Tomatoes need water.';
    const tobaccoInMouth = sentenceIn('m#0', mouth, 'Mouth cancer risk factors include tobacco use.');
    const tobaccoInBladder = sentenceIn('b#0', bladder, 'Tobacco use harms the bladder.');
    const sun = sentenceIn('g#0', garden, 'Tomatoes need sun.');
    const water = sentenceIn('g#0', garden, 'Tomatoes need water.');
    // One paragraph each: buildHandIndex makes every document one chunk, '<id>#0'.
    const index = await buildHandIndex({
      documents: [
        { id: 'm', text: mouth },
        { id: 'b', text: bladder },
        { id: 'g', text: garden },
      ],
      entities: [
        { id: 'c', name: 'mouth cancer', chunkIds: ['m#0'], spans: [tobaccoInMouth] },
        { id: 't', name: 'tobacco use', chunkIds: ['m#0', 'b#0'], spans: [tobaccoInMouth, tobaccoInBladder] },
        { id: 'g', name: 'tomatoes', chunkIds: ['g#0'], spans: [sun, water] },
      ],
      relations: [
        { id: 'ct', source: 'c', target: 't', label: 'risk factor', chunkIds: ['m#0', 'b#0'], spans: [tobaccoInMouth, tobaccoInBladder] },
        { id: 'tg', source: 't', target: 'g', label: 'near', chunkIds: ['g#0'], spans: [sun, water] },
      ],
      lexical: true,
    });
    const question = 'What are the risk factors for mouth cancer?';
    const context = await contextFor(index, question, makePolicy({ evidenceCount: 18, minEvidence: 0 }));
    const floorPaths = [path(['c', 't', 'g'], ['ct', 'tg'], 0.9)];
    const floorSeeds: Seed[] = [{ nodeId: 'c', name: 'mouth cancer', entityScore: 1, relationScore: 1, score: 1, query: question }];
    const select = async (spanRelevanceFloor?: number) => {
      const result = await createEvidenceSelector({
        dedupeSentences: false,
        ...(spanRelevanceFloor === undefined ? {} : { tuning: { spanRelevanceFloor } }),
      }).selectEvidence({
        context,
        index,
        paths: floorPaths,
        seeds: floorSeeds,
      });
      const spans = (id: string) => result.units.find((unit) => unit.id === id)!.spans;
      return { tobacco: spans('entity:t'), tomatoes: spans('entity:g'), relation: spans('relation:ct'), floor: result.trace.spanRelevanceFloor };
    };
    // Off: every mention grounds.
    expect(await select(0)).toEqual({
      tobacco: [tobaccoInMouth, tobaccoInBladder],
      tomatoes: [sun, water],
      relation: [tobaccoInMouth, tobaccoInBladder],
      floor: 0,
    });
    // Default 0.3: the bladder passage shares no word with the question, so tobacco use grounds only in the
    // mouth guide; the tomatoes keep their best sentence (corpus order on a tie); the relation keeps both.
    expect(await select()).toEqual({ tobacco: [tobaccoInMouth], tomatoes: [sun], relation: [tobaccoInMouth, tobaccoInBladder], floor: 0.3 });
    for (const spanRelevanceFloor of [-0.1, 1.5, Number.NaN]) {
      expect(() => createEvidenceSelector({ tuning: { spanRelevanceFloor } })).toThrow(/spanRelevanceFloor/);
    }
  });

  it('rejects a spanContextWeight that is negative or not finite', () => {
    for (const spanContextWeight of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createEvidenceSelector({ tuning: { spanContextWeight } })).toThrow(/spanContextWeight/);
    }
  });

  it('sets aside a unit whose sentences earlier units already ground, so B counts distinct statements', async () => {
    const index = await buildHandIndex(fixture);
    const context = await contextFor(index, 'What does aspirin treat?', makePolicy({ evidenceCount: 6, minEvidence: 0 }));
    const deduplicated = await createEvidenceSelector({ tuning: { spansPerEntity: 1, dedupeScope: 'sentence' } }).selectEvidence({
      context,
      index,
      paths,
      seeds,
    });
    const trace = deduplicated.trace;
    const sentencesOf = (units: typeof deduplicated.units) => units.flatMap((unit) => unit.spans ?? []).map((span) => span.start);
    // Every retained unit brings at least one sentence no earlier unit grounds.
    const grounded = new Set<number>();
    for (const unit of deduplicated.units) {
      const starts = (unit.spans ?? []).map((span) => span.start);
      expect(starts.some((start) => !grounded.has(start))).toBe(true);
      for (const start of starts) grounded.add(start);
    }
    expect(trace.redundant.length).toBeGreaterThan(0);
    expect(new Set(sentencesOf(deduplicated.units)).size).toBe(4);
    const plain = await createEvidenceSelector({ dedupeSentences: false, tuning: { spansPerEntity: 1 } }).selectEvidence({ context, index, paths, seeds });
    expect(plain.trace.redundant).toEqual([]);
    // Without it, the six units of B repeat sentences: four statements for six units.
    expect(plain.units).toHaveLength(6);
    expect(new Set(sentencesOf(plain.units)).size).toBe(4);
    expect(deduplicated.units.length).toBeLessThan(6);
  });

  it("with dedupeScope 'window', sets aside a unit whose sentences lie only in windows earlier units reach", async () => {
    const near = ['Aspirin treats headache pain.', 'Aspirin thins the blood.'];
    const far = 'Aspirin can irritate the stomach lining.';
    const filler = ' The weather was mild that year and the harvest came in early across the valley towns.'.repeat(4);
    const doc = `${near.join(' ')}${filler} ${far}`;
    const at = (sentence: string) => ({ chunkId: 'w#0', start: doc.indexOf(sentence), end: doc.indexOf(sentence) + sentence.length });
    const index = await buildHandIndex({
      documents: [{ id: 'w', text: doc }],
      chunks: [{ id: 'w#0', documentId: 'w', start: 0, end: doc.length, text: doc }],
      window: { size: 100, stride: 50 },
      entities: [
        { id: 'a', name: 'Aspirin', chunkIds: ['w#0'], spans: [at(near[0])] },
        { id: 'h', name: 'headache pain', chunkIds: ['w#0'], spans: [at(near[0])] },
        { id: 'b', name: 'blood', chunkIds: ['w#0'], spans: [at(near[1])] },
        { id: 's', name: 'stomach lining', chunkIds: ['w#0'], spans: [at(far)] },
      ],
      relations: [
        { id: 'ah', source: 'a', target: 'h', label: 'treats', chunkIds: ['w#0'], spans: [at(near[0])] },
        { id: 'ab', source: 'a', target: 'b', label: 'thins', chunkIds: ['w#0'], spans: [at(near[1])] },
        { id: 'as', source: 'a', target: 's', label: 'irritates', chunkIds: ['w#0'], spans: [at(far)] },
      ],
    });
    // The premise: the two near sentences share their only window; the far one lies elsewhere.
    const windowsOf = (span: ReturnType<typeof at>) =>
      index.chunks
        .windowsOfChunk('w#0')
        .filter((w) => w.start <= span.start && w.end >= span.end)
        .map((w) => w.id);
    expect(windowsOf(at(near[1])).every((id) => windowsOf(at(near[0])).includes(id))).toBe(true);
    expect(windowsOf(at(far)).some((id) => windowsOf(at(near[0])).includes(id))).toBe(false);
    const context = await contextFor(index, 'What does aspirin do?', makePolicy({ evidenceCount: 3, minEvidence: 0 }));
    const threePaths = [path(['a', 'h'], ['ah'], 0.9), path(['a', 'b'], ['ab'], 0.8), path(['a', 's'], ['as'], 0.7)];
    const run = (dedupeScope: 'window' | 'sentence') =>
      createEvidenceSelector({ tuning: { dedupeScope } }).selectEvidence({ context, index, paths: threePaths, seeds });
    const byWindow = await run('window');
    expect(byWindow.trace.dedupeScope).toBe('window');
    expect(byWindow.trace.redundant).toContain('relation:ab');
    expect(byWindow.units.map((unit) => unit.id)).toContain('relation:as');
    const bySentence = await run('sentence');
    expect(bySentence.trace.redundant).not.toContain('relation:ab');
    expect(bySentence.units.map((unit) => unit.id).slice(0, 3)).toEqual(['relation:ah', 'relation:ab', 'relation:as']);
    expect(() => createEvidenceSelector({ tuning: { dedupeScope: 'chunk' as 'window' } })).toThrow(/dedupeScope/);
    // A tuning option at the top level (where it was before 0.x) and an unknown tuning key fail.
    // @ts-expect-error dedupeScope is a tuning option
    expect(() => createEvidenceSelector({ dedupeScope: 'sentence' })).toThrow(/pass it as tuning\.dedupeScope/);
    // @ts-expect-error not a tuning option
    expect(() => createEvidenceSelector({ tuning: { dedupeSentences: false } })).toThrow(/tuning\.dedupeSentences/);
  });

  it('selects as many paths as the policy keeps evidence (no fixed cap of 8)', async () => {
    const many: BuildHandIndexOptions = {
      entities: [{ id: 'S', name: 'Sol' }, ...Array.from({ length: 16 }, (_, i) => ({ id: `n${i}`, name: `Body${i}` }))],
      relations: Array.from({ length: 16 }, (_, i) => ({ id: `o${i}`, source: `n${i}`, target: 'S', label: 'orbits' })),
    };
    const index = await buildHandIndex(many);
    const starPaths = Array.from({ length: 16 }, (_, i) => path(['S', `n${i}`], [`o${i}`], 1 - i / 32));
    const sol: Seed[] = [{ nodeId: 'S', name: 'Sol', entityScore: 1, relationScore: 1, score: 1, query: 'q' }];
    for (const evidenceCount of [3, 8, 15]) {
      const context = await contextFor(index, 'What orbits Sol?', makePolicy({ evidenceCount, minEvidence: 0 }));
      const result = await createEvidenceSelector().selectEvidence({ context, index, paths: starPaths, seeds: sol });
      expect(result.paths).toHaveLength(evidenceCount);
      expect(result.trace.considered).toBe(Math.max(10, evidenceCount));
    }
    const capped = await createEvidenceSelector({ maxPaths: 4 }).selectEvidence({
      context: await contextFor(index, 'What orbits Sol?', makePolicy({ evidenceCount: 15, minEvidence: 0 })),
      index,
      paths: starPaths,
      seeds: sol,
    });
    expect(capped.paths).toHaveLength(4);
  });
});

describe('createEvidenceSelector: connector paths the policy asks for', () => {
  const solar: BuildHandIndexOptions = {
    entities: [
      { id: 'S', name: 'Sol' },
      ...Array.from({ length: 12 }, (_, i) => ({ id: `n${i}`, name: `Body${i}` })),
      { id: 'm', name: 'Mira' },
      { id: 'T', name: 'Tera' },
    ],
    relations: [
      ...Array.from({ length: 12 }, (_, i) => ({ id: `o${i}`, source: `n${i}`, target: 'S', label: `orbits${i}` })),
      { id: 'om', source: 'm', target: 'S', label: 'circles' },
      { id: 'mT', source: 'm', target: 'T', label: 'hosts' },
    ],
  };
  const starPaths = Array.from({ length: 12 }, (_, i) => path(['S', `n${i}`], [`o${i}`], 0.9 - i / 100));
  const connector: ScoredPath = { ...path(['S', 'm', 'T'], ['om', 'mT'], 0.2), origin: 'connector' };
  const sol: Seed[] = [{ nodeId: 'S', name: 'Sol', entityScore: 1, relationScore: 1, score: 1, query: 'q', targetIndex: 0 }];

  it('lets the reserved connector slot take the best connector path beyond the shared filter', async () => {
    const index = await buildHandIndex(solar);
    const policy = makePolicy({ evidenceCount: 8, minEvidence: 0, adaptiveFinalEvidence: true, useConnector: true });
    const context = await contextFor(index, 'How is Sol linked to Tera?', policy);
    const result = await createEvidenceSelector().selectEvidence({ context, index, paths: [...starPaths, connector], seeds: sol });
    expect(result.trace.considered).toBe(10);
    expect(result.paths.find((p) => p.origin === 'connector')).toMatchObject({ id: connector.id, role: 'connector' });
    const off = await createEvidenceSelector({ tuning: { connectorBeyondFilter: false } }).selectEvidence({
      context,
      index,
      paths: [...starPaths, connector],
      seeds: sol,
    });
    expect(off.paths.some((p) => p.origin === 'connector')).toBe(false);
    // Without the connector view in the policy, the filter decides as before.
    const noView = await createEvidenceSelector().selectEvidence({
      context: await contextFor(index, 'How is Sol linked to Tera?', { ...policy, useConnector: false }),
      index,
      paths: [...starPaths, connector],
      seeds: sol,
    });
    expect(noView.paths.some((p) => p.origin === 'connector')).toBe(false);
  });
});
