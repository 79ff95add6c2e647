// Seeded random graphs, policies and seeds for the traversal's property and golden tests.
import type { Policy, Seed } from '@mosaic/spec';
import { makePolicy, seededRandom } from '@mosaic/testing';
import { buildHandIndex, type HandBuiltIndex } from '@mosaic/testing/hand-built-index';
import type { BeamTraverserOptions } from './beam-traverser.js';

const words = ['heart', 'lung', 'drug', 'pain', 'fever', 'cell', 'gene', 'river', 'king', 'war', 'city', 'treats', 'causes', 'rules'];
const labels = ['treats', 'causes', 'part of', 'located in', 'rules', 'related to'];

export interface RandomCase {
  index: HandBuiltIndex;
  policy: Policy;
  seeds: Seed[];
  question: string;
  options: BeamTraverserOptions;
}

/** Four one-paragraph documents `d0`…`d3` of random words (chunks `d0#0`…). */
function passages(round: number): { id: string; text: string }[] {
  const random = seededRandom(500 + round);
  return Array.from({ length: 4 }, (_, d) => ({
    id: `d${d}`,
    text: Array.from({ length: 12 + Math.floor(random() * 20) }, () => words[Math.floor(random() * words.length)]).join(' '),
  }));
}

/** A random graph (hubs, parallel edges, question-like names, shared chunks), policy and seeds. */
export async function randomCase(round: number): Promise<RandomCase> {
  const random = seededRandom(7000 + round);
  const lexical = round % 3 === 2;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const nodeCount = 6 + Math.floor(random() * 30);
  const entities = Array.from({ length: nodeCount }, (_, i) => ({
    id: `v${i}`,
    name: random() < 0.1 ? `What is ${pick(words)}?` : `${pick(words)} ${pick(words)}`,
    description: random() < 0.7 ? `${pick(words)} ${pick(words)} ${pick(words)}` : undefined,
    aliases: random() < 0.2 ? [pick(words)] : undefined,
  }));
  const relations = Array.from({ length: nodeCount * (1 + Math.floor(random() * 3)) }, (_, i) => {
    // A third of the relations touch v0, which becomes a hub.
    const source = random() < 0.33 ? 0 : Math.floor(random() * nodeCount);
    let target = Math.floor(random() * nodeCount);
    if (target === source) target = (target + 1) % nodeCount;
    return {
      id: `r${i}`,
      source: `v${source}`,
      target: `v${target}`,
      label: pick(labels),
      description: random() < 0.5 ? pick(words) : undefined,
      keywords: random() < 0.3 ? [pick(words)] : undefined,
      chunkIds: [lexical ? `d${Math.floor(random() * 4)}#0` : `c${Math.floor(random() * 4)}`],
    };
  });
  // Every third round: source documents and BM25 indexes, so r(e) has its lexical and passage terms.
  const documents = lexical ? passages(round) : undefined;
  const index = await buildHandIndex({ entities, relations, ...(documents ? { documents, lexical: true } : {}) });
  const policy = makePolicy({
    maxDepth: 1 + Math.floor(random() * 4),
    beamWidth: 1 + Math.floor(random() * 6),
    anchorStrength: random(),
    useConnector: random() < 0.5,
    stopRegime: pick(['shallow', 'medium', 'deep'] as const),
    fixedDepth: random() < 0.2,
    targetEntities: random() < 0.7 ? [pick(entities).name, pick(entities).name] : [],
    targetFacets: random() < 0.5 ? [pick(labels), pick(words)] : [],
  });
  const seed = (nodeId: string, targetIndex?: number): Seed => ({
    nodeId,
    name: nodeId,
    entityScore: 0,
    relationScore: 1,
    score: 1,
    query: 'q',
    ...(targetIndex !== undefined ? { targetIndex } : {}),
  });
  const seeds = [seed(pick(entities).id, 0), seed(pick(entities).id, 1), seed(pick(entities).id), seed('v0')];
  const options: BeamTraverserOptions = {};
  if (random() < 0.2) options.maxCandidatesPerPath = 1 + Math.floor(random() * 3);
  if (random() < 0.15) options.refillBeam = false;
  if (random() < 0.15) options.searchLimit = 1 + Math.floor(random() * 10);
  // Its own generator, so the draws above and the question stay what they were before the cap existed.
  const capRandom = seededRandom(9000 + round);
  if (capRandom() < 0.3) options.tuning = { maxNeighborsPerNode: 2 + Math.floor(capRandom() * 4) };
  return { index, policy, seeds, question: `${pick(words)} ${pick(labels)} ${pick(words)}`, options };
}
