import type { BeamTraversalTrace } from '@mosaic/traversal';
import { createEvidenceSelector } from '@mosaic/evidence-selection';
import { createMosaic } from '@mosaic/pipeline';
import { createSeedSelector } from '@mosaic/seed-selection';
import type { Encoder, Policy } from '@mosaic/spec';
import { FIXTURE_QUESTIONS } from '@mosaic/testing';
import type { HandBuiltIndex } from '@mosaic/testing/hand-built-index';
import { createBeamTraverser } from '@mosaic/traversal';
import { type Bm25Index, DEFAULT_MAX_POSTINGS_PER_TERM } from '@mosaic/vector-index';
import { RecordId } from 'surrealdb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureIndex } from './__fixtures__/fixture-hand-index.js';
import { piecesFromCorpusIndex } from './index-pieces.js';
import { connectSurreal, type SurrealConnection } from './surreal-connection.js';
import { loadSurrealIndex, writeIndexToSurreal, type SurrealCorpusIndex, type WriteIndexToSurrealResult } from './surreal-index.js';

const connections: SurrealConnection[] = [];
async function memory(database: string): Promise<SurrealConnection> {
  const connection = await connectSurreal({ url: 'mem://', database });
  connections.push(connection);
  return connection;
}
afterAll(async () => {
  for (const connection of connections) await connection.close();
});

function succeeded<T>(item: { ok: true; result: T } | { ok: false; error: unknown }): T {
  if (!item.ok) throw item.error;
  return item.result;
}

let inMemory: HandBuiltIndex;
let connection: SurrealConnection;
let written: WriteIndexToSurrealResult;
let surreal: SurrealCorpusIndex;

beforeAll(async () => {
  inMemory = await buildFixtureIndex();
  connection = await memory('fixture');
  written = await writeIndexToSurreal({
    connection,
    index: inMemory,
    // The hand-built index embeds its own entity / relation texts: re-encode exactly those.
    texts: { entities: inMemory.entityTexts, relations: inMemory.relationTexts },
    batchSize: 16,
    now: () => new Date('2026-01-01T00:00:00.000Z'),
  });
  surreal = await loadSurrealIndex({ connection, encoder: inMemory.encoder });
});

describe('writeIndexToSurreal → loadSurrealIndex', () => {
  it('stores the whole index and reads back the same graph, chunks, windows, vectors and BM25 state', async () => {
    expect(written.vectorSources).toEqual({ entities: 're-encoded', relations: 're-encoded', windows: 'window-vector' });
    expect(written.record.counts).toMatchObject({
      entities: inMemory.manifest.counts.entities,
      relations: inMemory.manifest.counts.relations,
      chunks: inMemory.manifest.counts.chunks,
      windows: inMemory.manifest.counts.windows,
      documents: inMemory.manifest.counts.documents,
    });
    expect(written.record.writtenAt).toBe('2026-01-01T00:00:00.000Z');
    expect(surreal.manifest).toEqual({ ...inMemory.manifest, vectorIndex: { factory: 'surrealdb:HNSW(M=12,EFC=150,COSINE)' } });
    expect(surreal.record.lexical).toEqual(['entities', 'relations', 'windows']);

    const graph = surreal.graph;
    expect([graph.nodeCount, graph.edgeCount, graph.hubDegree, graph.maxDegree]).toEqual([
      inMemory.graph.nodeCount,
      inMemory.graph.edgeCount,
      inMemory.graph.hubDegree,
      inMemory.graph.maxDegree,
    ]);
    expect(await graph.getNodes(inMemory.entityIds)).toEqual(await inMemory.graph.getNodes(inMemory.entityIds));
    const plain = (value: unknown) => JSON.parse(JSON.stringify(value));
    expect(plain(await graph.getEdges(inMemory.relationIds))).toEqual(plain(await inMemory.graph.getEdges(inMemory.relationIds)));
    const neighbors = await graph.neighbors(inMemory.entityIds);
    const expected = await inMemory.graph.neighbors(inMemory.entityIds);
    for (const id of inMemory.entityIds) expect(plain(neighbors.get(id))).toEqual(plain(expected.get(id)));

    expect(surreal.entityIds).toEqual(inMemory.entityIds);
    expect(surreal.relationIds).toEqual(inMemory.relationIds);
    expect(surreal.windowIds).toEqual(inMemory.windowIds);
    expect(surreal.chunks.chunkCount).toBe(inMemory.chunks.chunkCount);
    expect(surreal.chunks.windowCount).toBe(inMemory.chunks.windowCount);
    for (const chunk of inMemory.chunkList) {
      expect(surreal.chunks.getChunk(chunk.id)).toEqual(chunk);
      expect(surreal.chunks.windowsOfChunk(chunk.id)).toEqual(inMemory.chunks.windowsOfChunk(chunk.id));
    }
    expect(surreal.documents).toEqual(inMemory.documents);

    const entityVectors = await inMemory.encoder.encode(inMemory.entityTexts);
    expect(await surreal.databaseIndexes.entities.getVectors(entityVectors.map((_, label) => label))).toEqual(entityVectors);
    const windowLabels = inMemory.windowIds.map((_, label) => label);
    expect(await surreal.databaseIndexes.windows.getVectors(windowLabels)).toEqual(inMemory.windowIds.map((id) => inMemory.windowVector!(id)));
    for (const query of ['Morrow syndrome treatment', 'ship built in port', 'clock designed']) {
      for (const kind of ['entities', 'relations', 'windows'] as const) {
        expect(surreal.lexical![kind]!.search(query, 5)).toEqual(inMemory.lexical![kind]!.search(query, 5));
      }
    }
  });

  it('reads BM25 lists for at most maxPostingsPerTerm labels, as loadIndex does (default DEFAULT_MAX_POSTINGS_PER_TERM), and refuses a bad cap', async () => {
    const cutOf = (index: SurrealCorpusIndex) => (index.lexical!.relations as Bm25Index).cutLists;
    expect(cutOf(surreal)).toEqual({ maxPostingsPerTerm: DEFAULT_MAX_POSTINGS_PER_TERM, lists: 0, postings: 0 });
    expect(cutOf(await loadSurrealIndex({ connection, encoder: inMemory.encoder, maxPostingsPerTerm: false })).maxPostingsPerTerm).toBeUndefined();
    const cut = await loadSurrealIndex({ connection, encoder: inMemory.encoder, maxPostingsPerTerm: 1 });
    expect(cutOf(cut).lists).toBeGreaterThan(0);
    const query = 'Morrow syndrome treatment ship built in port';
    expect(cut.lexical!.relations!.scoreAll!(query).count).toBeLessThan(surreal.lexical!.relations!.scoreAll!(query).count);
    await expect(loadSurrealIndex({ connection, encoder: inMemory.encoder, maxPostingsPerTerm: 0 })).rejects.toMatchObject({
      name: 'MosaicInvalidArgumentError',
      argument: 'maxPostingsPerTerm',
    });
  });

  it('runs seed selection, traversal and evidence selection unchanged, one round trip per depth', async () => {
    const seedSelector = createSeedSelector();
    const traverser = createBeamTraverser();
    const evidenceSelector = createEvidenceSelector();
    // Policies from the pipeline's offline analyzer, plus a deep connector policy.
    const analyzed = await createMosaic({ index: inMemory }).retrieveBatch({ questions: FIXTURE_QUESTIONS.map((q) => ({ id: q.id, text: q.question })) });
    let depthsTotal = 0;
    let pathsTotal = 0;
    for (const item of analyzed) {
      const question = item.input;
      const { policy: analyzedPolicy } = succeeded(item);
      const policies: Policy[] = [analyzedPolicy, { ...analyzedPolicy, useConnector: true, maxDepth: 3, stopRegime: 'deep', beamWidth: 6 }];
      for (const policy of policies) {
        const [queryVector] = await inMemory.encoder.encode([question.text]);
        const context = { question, queryVector, policy };
        const run = async (index: HandBuiltIndex | SurrealCorpusIndex) => {
          const seeds = await seedSelector.selectSeeds({ context, index });
          const traversal = await traverser.traverse({ context, index, seeds: seeds.seeds });
          const evidence = await evidenceSelector.selectEvidence({ context, index, paths: traversal.paths, seeds: seeds.seeds });
          return { seeds, traversal, evidence };
        };
        const expected = await run(inMemory);
        const before = surreal.graph.stats;
        const actual = await run(surreal);
        const after = surreal.graph.stats;
        expect(actual.seeds.seeds).toEqual(expected.seeds.seeds);
        expect(actual.traversal.paths).toEqual(expected.traversal.paths);
        expect(actual.evidence.units).toEqual(expected.evidence.units);
        expect(actual.evidence.paths).toEqual(expected.evidence.paths);
        // The traverser asks for each depth's whole frontier at once: its round trips are the store's neighbour requests.
        expect(actual.traversal.trace.roundTrips).toBe(expected.traversal.trace.roundTrips);
        expect(after.neighborQueries - before.neighborQueries).toBe(actual.traversal.trace.roundTrips);
        expect(actual.traversal.trace.roundTrips).toBeLessThanOrEqual(policy.maxDepth);
        depthsTotal += actual.traversal.trace.roundTrips;
        pathsTotal += actual.evidence.paths.length;
      }
    }
    expect(depthsTotal).toBeGreaterThan(FIXTURE_QUESTIONS.length);
    expect(pathsTotal).toBeGreaterThan(FIXTURE_QUESTIONS.length);
  });

  it('retrieves the same windows as the in-memory index through the whole pipeline, with and without cached vectors', async () => {
    const questions = FIXTURE_QUESTIONS.map((q) => ({ id: q.id, text: q.question }));
    const expected = await createMosaic({ index: inMemory }).retrieveBatch({ questions });
    const cached = await loadSurrealIndex({ connection, encoder: inMemory.encoder, cacheVectors: true });
    expect(cached.entityVector!(inMemory.entityIds[3])).toEqual((await inMemory.encoder.encode([inMemory.entityTexts[3]]))[0]);
    expect(cached.windowVector!(inMemory.windowIds[2])).toEqual(inMemory.windowVector!(inMemory.windowIds[2]));
    expect(surreal.entityVector).toBeUndefined();
    const uncachedRecords = await loadSurrealIndex({ connection, encoder: inMemory.encoder, cacheVectors: true, cacheRecords: 0 });
    for (const index of [surreal, cached, uncachedRecords]) {
      const mosaic = createMosaic({ index });
      // The analyzer reads its name table once per pipeline (every entity, in batches): not part of a question.
      await mosaic.retrieve({ question: questions[0] });
      for (const [i, question] of questions.entries()) {
        const before = index.roundTrips;
        const actual = await mosaic.retrieve({ question });
        const want = succeeded(expected[i]);
        expect(actual.windows.length).toBeGreaterThan(0);
        expect(actual.windows.map((w) => w.id)).toEqual(want.windows.map((w) => w.id));
        actual.windows.forEach((w, j) => {
          expect(w.score).toBeCloseTo(want.windows[j].score, 5);
        });
        // Cached vectors are searched in the worker with FAISS (float sums), the hand-built index in JS: equal to 6 decimals.
        expect(rounded(actual.seeds)).toEqual(rounded(want.seeds));
        expect(actual.paths.map((p) => p.id)).toEqual(want.paths.map((p) => p.id));
        expect(actual.trace.traversal.roundTrips).toBe(want.trace.traversal.roundTrips);
        // Database requests of one question with cached vectors: at most one for the analyzer's connectivity check, one
        // for the seeds' records, one per depth — with or without the worker's record cache (the retrieval's view keeps
        // what the question read). Without, one more for the seeds' searches (all in one request) and the
        // traverser's whole-index searches.
        const depth = actual.trace.traversal.depths.length;
        const searches = (actual.trace.traversal as BeamTraversalTrace).indexSearches;
        if (index !== surreal) expect(index.roundTrips - before).toBeLessThanOrEqual(depth + 2);
        else expect(index.roundTrips - before).toBeLessThanOrEqual(depth + 3 + searches);
      }
    }
  });
});

/** Every number rounded to 6 decimals (scores computed with float32 or float64 sums agree that far). */
function rounded(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_, v) => (typeof v === 'number' ? Math.round(v * 1e6) / 1e6 : v)));
}

describe('manifest rules', () => {
  it('refuses another encoder id or dimension, and an unexpected encoder id', async () => {
    const other = (id: string, dimension: number): Encoder => ({ ...inMemory.encoder, id, dimension });
    await expect(loadSurrealIndex({ connection, encoder: other('onnx:other', 256) })).rejects.toMatchObject({
      name: 'MosaicIndexMismatchError',
      field: 'encoder.id',
    });
    await expect(loadSurrealIndex({ connection, encoder: other(inMemory.encoder.id, 128) })).rejects.toMatchObject({
      name: 'MosaicIndexMismatchError',
      field: 'encoder.dimension',
      expected: 128,
      actual: 256,
    });
    await expect(loadSurrealIndex({ connection, encoder: inMemory.encoder, expectedEncoderId: 'onnx:bge' })).rejects.toMatchObject({
      name: 'MosaicIndexMismatchError',
      field: 'encoder.id',
    });
  });

  it('refuses a database without manifest, another layout version and counts that disagree', async () => {
    const empty = await memory('empty');
    await expect(loadSurrealIndex({ connection: empty, encoder: inMemory.encoder })).rejects.toMatchObject({
      name: 'MosaicIndexMismatchError',
      field: 'manifest',
    });

    const copy = await memory('copy');
    await writeIndexToSurreal({ connection: copy, index: inMemory, texts: { entities: inMemory.entityTexts, relations: inMemory.relationTexts } });
    await copy.db.query('UPDATE $id SET formatVersion = 99', { id: new RecordId('mosaic_manifest', 'current') }).collect();
    await expect(loadSurrealIndex({ connection: copy, encoder: inMemory.encoder })).rejects.toMatchObject({
      name: 'MosaicIndexMismatchError',
      field: 'formatVersion',
      actual: 99,
    });
    await copy.db.query('UPDATE $id SET formatVersion = 1', { id: new RecordId('mosaic_manifest', 'current') }).collect(); // format 1 still loads
    await copy.db.query('DELETE $id', { id: new RecordId('relation', inMemory.relationIds[0]) }).collect();
    await expect(loadSurrealIndex({ connection: copy, encoder: inMemory.encoder })).rejects.toMatchObject({
      name: 'MosaicIndexMismatchError',
      field: 'counts',
    });
  });

  it('refuses to overwrite an index unless replace is set, and replaces it completely', async () => {
    const target = await memory('replace');
    const texts = { entities: inMemory.entityTexts, relations: inMemory.relationTexts };
    await writeIndexToSurreal({ connection: target, index: inMemory, texts });
    await expect(writeIndexToSurreal({ connection: target, index: inMemory, texts })).rejects.toMatchObject({
      name: 'MosaicInvalidArgumentError',
      argument: 'replace',
    });
    const { pieces } = await piecesFromCorpusIndex({ index: inMemory, texts });
    const smaller = {
      ...pieces,
      relations: pieces.relations.slice(0, 3),
      vectors: { ...pieces.vectors, relations: { ids: pieces.vectors.relations.ids.slice(0, 3), vectors: pieces.vectors.relations.vectors.slice(0, 3) } },
    };
    await writeIndexToSurreal({ connection: target, pieces: smaller, replace: true });
    const loaded = await loadSurrealIndex({ connection: target, encoder: inMemory.encoder });
    expect(loaded.graph.edgeCount).toBe(3);
    expect(loaded.relationIds).toEqual(pieces.vectors.relations.ids.slice(0, 3));
    expect(loaded.entityIds).toEqual(inMemory.entityIds);
  });

  it('rejects a mem:// url of its own and a missing source', async () => {
    await expect(writeIndexToSurreal({ url: 'mem://', index: inMemory })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError', argument: 'url' });
    await expect(writeIndexToSurreal({ connection })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError', argument: 'index' });
  });
});
