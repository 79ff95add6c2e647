import type { CorpusIndex, Policy, QueryContext, ScoredPath, Seed } from '@mosaic/spec';
import { buildHandIndex, type BuildHandIndexOptions } from '@mosaic/testing/hand-built-index';
import { describe, expect, it } from 'vitest';
import { createEvidenceSelector } from './evidence-selector.js';
import { makePolicy } from '@mosaic/testing';

const terms = { relation: 0, target: 0, specificity: 0, anchor: 0, transition: 0, coherence: 0, hub: 0, repetition: 0, questionLike: 0 };

function path(nodes: string[], edges: string[], score: number, origin: ScoredPath['origin'] = 'beam'): ScoredPath {
  const id = nodes.flatMap((node, i) => (i < edges.length ? [node, edges[i]] : [node])).join('|');
  return { id, nodes, edges, score, terms, seed: nodes[0], origin, depth: edges.length };
}

async function contextFor(index: CorpusIndex, policy: Policy): Promise<QueryContext> {
  const [queryVector] = await index.encoder.encode(['question']);
  return { question: { text: 'question' }, queryVector, policy };
}

const seeds: Seed[] = [{ nodeId: 'S', name: 'Sol', entityScore: 0, relationScore: 1, score: 1, query: 'Sol', targetIndex: 0 }];

/** Sol with many orbiting bodies; Tera (the second target) is two hops away. */
const solar: BuildHandIndexOptions = {
  entities: [
    { id: 'S', name: 'Sol', description: 'a star' },
    ...[1, 2, 3, 4, 5, 6].map((i) => ({ id: `n${i}`, name: `Body${i}` })),
    { id: 'k', name: 'Kappa' },
    { id: 'K', name: 'Kor' },
    { id: 'f', name: 'Fenn', description: 'a planet' },
    { id: 'm', name: 'Mira' },
    { id: 'T', name: 'Tera', description: 'a distant world' },
    { id: 'g', name: 'Gamma' },
  ],
  relations: [
    ...[1, 2, 3, 4, 5, 6].map((i) => ({ id: `o${i}`, source: `n${i}`, target: 'S', label: 'orbits' })),
    { id: 'ok', source: 'k', target: 'S', label: 'orbits' },
    { id: 'kK', source: 'k', target: 'K', label: 'orbits' },
    { id: 'fm', source: 'S', target: 'f', label: 'has moons', description: 'Fenn has two moons' },
    { id: 'om', source: 'm', target: 'S', label: 'orbits' },
    { id: 'mT', source: 'm', target: 'T', label: 'hosts' },
    { id: 'eg', source: 'S', target: 'g', label: 'emits' },
  ],
};

const solarPaths: ScoredPath[] = [
  ...[1, 2, 3, 4, 5, 6].map((i) => path(['S', `n${i}`], [`o${i}`], 0.95 - 0.05 * i)),
  path(['S', 'k', 'K'], ['ok', 'kK'], 0.6, 'connector'),
  path(['S', 'f'], ['fm'], 0.55),
  path(['S', 'm', 'T'], ['om', 'mT'], 0.5),
  path(['S', 'g'], ['eg'], 0.45),
];

/** With `scoreMargin: 0.1` only the first is selected: three units, and two paths beyond the selection. */
const marginPaths: ScoredPath[] = [path(['S', 'n1'], ['o1'], 0.9), path(['S', 'n2'], ['o2'], 0.5), path(['S', 'n3'], ['o3'], 0.4)];

describe('createEvidenceSelector: path selection', () => {
  it('without adaptive final evidence takes the global top paths', async () => {
    const index = await buildHandIndex(solar);
    const policy = makePolicy({ targetEntities: ['Sol', 'Tera'], targetFacets: ['moons'] });
    const result = await createEvidenceSelector().selectEvidence({ context: await contextFor(index, policy), index, paths: solarPaths, seeds });
    expect(result.paths.map((selected) => selected.id)).toEqual(solarPaths.slice(0, 8).map((candidate) => candidate.id));
    expect(result.paths.every((selected) => selected.role === 'core')).toBe(true);
    expect(result.paths.map((selected) => selected.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(result.trace.coveredTargets).toEqual(['Sol']);
    expect(result.units.some((unit) => unit.text.includes('Tera'))).toBe(false);
  });

  it('with it: four core paths, then one path per complementary role, bringing in the uncovered target', async () => {
    const index = await buildHandIndex(solar);
    const policy = makePolicy({ targetEntities: ['Sol', 'Tera'], targetFacets: ['moons'], adaptiveFinalEvidence: true });
    const result = await createEvidenceSelector().selectEvidence({ context: await contextFor(index, policy), index, paths: solarPaths, seeds });
    expect(result.paths.map((selected) => [selected.id, selected.role])).toEqual([
      ['S|o1|n1', 'core'],
      ['S|o2|n2', 'core'],
      ['S|o3|n3', 'core'],
      ['S|o4|n4', 'core'],
      ['S|ok|k|kK|K', 'connector'],
      ['S|om|m|mT|T', 'uncovered-target'],
      ['S|fm|f', 'uncovered-facet'],
      ['S|eg|g', 'new-relation'],
    ]);
    const trace = result.trace;
    expect(trace.coveredTargets).toEqual(['Sol', 'Tera']);
    expect(trace.coveredFacets).toEqual(['moons']);
    // Round-robin flattening keeps the reserved path's far end (Mira hosts Tera) under the cap B = 8.
    expect(result.units).toHaveLength(8);
    expect(result.units.map((unit) => unit.id)).toContain('relation:mT');
    expect(result.units.find((unit) => unit.id === 'relation:mT')!.text).toBe('Mira hosts Tera');
  });

  it('fills by score when fewer roles apply', async () => {
    const index = await buildHandIndex(solar);
    const policy = makePolicy({ adaptiveFinalEvidence: true });
    const onlyBeam = solarPaths.filter((candidate) => candidate.origin === 'beam');
    const result = await createEvidenceSelector().selectEvidence({ context: await contextFor(index, policy), index, paths: onlyBeam, seeds });
    expect(result.paths.map((selected) => selected.role)).toEqual(['core', 'core', 'core', 'core', 'new-relation', 'fill', 'fill', 'fill']);
    expect(result.paths[4].id).toBe('S|fm|f');
  });

  it('deduplicates paths in either direction and lets the filter look at ten at most', async () => {
    const index = await buildHandIndex(solar);
    const reversed = path(['T', 'm', 'S'], ['mT', 'om'], 0.2);
    const paths = [...solarPaths, reversed, solarPaths[0], path(['n1', 'S', 'n2'], ['o1', 'o2'], 0.1)];
    const result = await createEvidenceSelector().selectEvidence({ context: await contextFor(index, makePolicy()), index, paths, seeds });
    expect(result.trace.candidates).toBe(11);
    expect(result.trace.considered).toBe(10);
    const small = await createEvidenceSelector({ filterSize: 3 }).selectEvidence({ context: await contextFor(index, makePolicy()), index, paths, seeds });
    expect(small.trace.considered).toBe(3);
    expect(small.paths).toHaveLength(3);
  });
});

describe('createEvidenceSelector: evidence units', () => {
  it('flattens into deduplicated entity and relation units with provenance, rank-ordered and capped at B', async () => {
    const index = await buildHandIndex(solar);
    const policy = makePolicy({ evidenceCount: 5 });
    const result = await createEvidenceSelector().selectEvidence({ context: await contextFor(index, policy), index, paths: solarPaths.slice(0, 3), seeds });
    // Round 1: each path's relation; round 2: each path's far entity; then Sol.
    expect(result.units.map((unit) => unit.id)).toEqual(['relation:o1', 'relation:o2', 'relation:o3', 'entity:n1', 'entity:n2']);
    expect(result.trace.capped).toBe(2);
    const [relation] = result.units;
    expect(relation).toMatchObject({ kind: 'relation', refId: 'o1', text: 'Body1 orbits Sol', pathIds: ['S|o1|n1'] });
    const [edge] = await index.graph.getEdges(['o1']);
    expect(relation.chunkIds).toEqual(edge.chunkIds);
    for (let i = 1; i < result.units.length; i += 1) expect(result.units[i].score).toBeLessThan(result.units[i - 1].score);

    const all = await createEvidenceSelector().selectEvidence({
      context: await contextFor(index, makePolicy({ evidenceCount: 18 })),
      index,
      paths: solarPaths.slice(0, 3),
      seeds,
    });
    const sol = all.units.find((unit) => unit.id === 'entity:S')!;
    expect(sol).toMatchObject({ kind: 'entity', text: 'Sol: a star' });
    expect(sol.pathIds).toEqual(['S|o1|n1', 'S|o2|n2', 'S|o3|n3']);
    expect(new Set(all.units.map((unit) => unit.id)).size).toBe(all.units.length);
    expect(all.units).toHaveLength(7);
  });

  it('the floor restores the best excluded units when fewer than L remain', async () => {
    const index = await buildHandIndex(solar);
    const selector = createEvidenceSelector({ scoreMargin: 0.1, tuning: { fillToBudget: false } });
    const paths = marginPaths;
    const noFloor = await selector.selectEvidence({ context: await contextFor(index, makePolicy({ minEvidence: 2 })), index, paths, seeds });
    expect(noFloor.paths).toHaveLength(1);
    expect(noFloor.units).toHaveLength(3);
    expect(noFloor.trace.restored).toBe(0);
    expect(noFloor.trace.filtered).toBe(2);

    const floor = await selector.selectEvidence({ context: await contextFor(index, makePolicy({ minEvidence: 5 })), index, paths, seeds });
    expect(floor.units).toHaveLength(5);
    expect(floor.trace.restored).toBe(2);
    expect(floor.units.slice(3).map((unit) => [unit.id, unit.restored])).toEqual([
      ['relation:o2', true],
      ['entity:n2', true],
    ]);
    expect(floor.units.slice(0, 3).every((unit) => unit.restored === undefined)).toBe(true);
    expect(floor.units[3].pathIds).toEqual(['S|o2|n2']);
  });

  it('with fillToBudget (the default), paths beyond the selection fill B when the selected ones fall short', async () => {
    const index = await buildHandIndex(solar);
    const paths = marginPaths;
    const context = await contextFor(index, makePolicy({ evidenceCount: 6, minEvidence: 2 }));
    // The margin keeps one path: three units, below B = 6.
    const filled = await createEvidenceSelector({ scoreMargin: 0.1 }).selectEvidence({ context, index, paths, seeds });
    expect(filled.paths).toHaveLength(1);
    expect(filled.trace.floorApplied).toBe(6);
    expect(filled.units.map((unit) => [unit.id, unit.restored ?? false])).toEqual([
      ['relation:o1', false],
      ['entity:n1', false],
      ['entity:S', false],
      ['relation:o2', true],
      ['entity:n2', true],
      ['relation:o3', true],
    ]);
    const bounded = await createEvidenceSelector({ scoreMargin: 0.1, tuning: { fillToBudget: false } }).selectEvidence({ context, index, paths, seeds });
    expect(bounded.trace.floorApplied).toBe(2);
    expect(bounded.units).toHaveLength(3);
  });

  it('the floor overrides a smaller cap, restoring capped units first', async () => {
    const index = await buildHandIndex(solar);
    const paths = solarPaths.slice(0, 2);
    const result = await createEvidenceSelector().selectEvidence({
      context: await contextFor(index, makePolicy({ evidenceCount: 2, minEvidence: 4 })),
      index,
      paths,
      seeds,
    });
    expect(result.trace.capped).toBe(3);
    expect(result.units.map((unit) => [unit.id, unit.restored ?? false])).toEqual([
      ['relation:o1', false],
      ['relation:o2', false],
      ['entity:n1', true],
      ['entity:n2', true],
    ]);
  });

  it('is deterministic and validates its inputs', async () => {
    const index = await buildHandIndex(solar);
    const policy = makePolicy({ targetEntities: ['Sol', 'Tera'], adaptiveFinalEvidence: true });
    const run = async () => createEvidenceSelector().selectEvidence({ context: await contextFor(index, policy), index, paths: solarPaths, seeds });
    expect(await run()).toEqual(await run());
    expect(() => createEvidenceSelector({ filterSize: 0 })).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
    await expect(
      createEvidenceSelector().selectEvidence({ context: await contextFor(index, makePolicy({ evidenceCount: 0 })), index, paths: solarPaths, seeds }),
    ).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError' });
    const empty = await createEvidenceSelector().selectEvidence({ context: await contextFor(index, makePolicy()), index, paths: [], seeds: [] });
    expect(empty.units).toEqual([]);
    expect(empty.trace).toMatchObject({ candidates: 0, considered: 0, capped: 0, restored: 0 });
  });
});
