import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type GraphologyGraphStore, loadGraphBinary, saveGraphBinary } from '@mosaic/graph';
import type { ChunkStore, CorpusIndex, GetNodesOptions, GraphStore, SentenceTokens, SpanColumns, TextSpan } from '@mosaic/spec';
import { passageRelevance } from '@mosaic/stage-utils';
import { chunkScoresByNumber, createSentenceTokens, SentenceTokenTable } from '@mosaic/stage-utils/internal';
import { buildHandIndex } from '@mosaic/testing/hand-built-index';
import { afterAll, describe, expect, it } from 'vitest';
import { GraphFacts } from './graph-facts.js';
import { SentenceTables, SpanFacts, TABLE_MIN_SPANS, tokensOfSentence, unitSpans } from './evidence-units.js';

// A hub entity named in hundreds of sentences over a dozen documents: the words vary with a seeded
// sequence, so questions share different numbers of tokens with different sentences and passages.
// Some are capitalised, plural or stop words, and some are not ASCII (a sentence holding one is
// tokenized from its slice; the others are read as numbers straight from the chunk).
const WORDS = [
  'kernel',
  'driver',
  'memory',
  'page',
  'cache',
  'device',
  'tree',
  'binding',
  'license',
  'module',
  'socket',
  'buffer',
  'Kernel',
  'DRIVERS',
  'the',
  'Pages',
  'café',
  'İstanbul',
  'Straße',
];
function corpus(): { documents: { id: string; text: string }[]; spans: TextSpan[] } {
  let state = 7;
  const next = () => (state = (state * 48271) % 2147483647);
  const documents: { id: string; text: string }[] = [];
  const spans: TextSpan[] = [];
  for (let d = 0; d < 12; d += 1) {
    const sentences: string[] = [];
    for (let s = 0; s < 30; s += 1) {
      const words = Array.from({ length: 3 + (next() % 5) }, () => WORDS[next() % WORDS.length]);
      sentences.push(`Hub ${words.join(' ')} ${s}.`);
    }
    const text = sentences.join(' ');
    documents.push({ id: `doc${d}`, text });
    let at = 0;
    for (const sentence of sentences) {
      const start = text.indexOf(sentence, at);
      at = start + sentence.length;
      spans.push({ chunkId: `doc${d}#0`, start, end: at });
    }
  }
  return { documents, spans };
}

async function hubIndex(): Promise<{ index: CorpusIndex; spans: TextSpan[] }> {
  const { documents, spans } = corpus();
  const index = await buildHandIndex({
    documents,
    chunks: documents.map((document) => ({ id: `${document.id}#0`, documentId: document.id, start: 0, end: document.text.length, text: document.text })),
    entities: [
      { id: 'hub', name: 'Hub', chunkIds: documents.map((document) => `${document.id}#0`), spans },
      { id: 'other', name: 'Other', chunkIds: ['doc0#0'], spans: spans.slice(0, 3) },
    ],
    relations: [{ id: 'r', source: 'hub', target: 'other', label: 'names', chunkIds: ['doc0#0'], spans: spans.slice(0, 1) }],
    lexical: true,
  });
  return { index, spans };
}

/** A chunk store answering from `index`'s, with `sentenceTokens` when given (and none of the index's own otherwise). */
function storeOver(index: CorpusIndex, sentenceTokens?: SentenceTokens): ChunkStore {
  return {
    getChunk: (id) => index.chunks.getChunk(id),
    getWindow: (id) => index.chunks.getWindow(id),
    windowsOfChunk: (id) => index.chunks.windowsOfChunk(id),
    chunkCount: index.chunks.chunkCount,
    windowCount: index.chunks.windowCount,
    ...(sentenceTokens ? { sentenceTokens } : {}),
  };
}

const QUESTIONS = [
  'Which kernel driver pages memory?',
  'What does the license say about the device tree binding?',
  'socket buffer cache',
  'Hub',
  'café in istanbul',
];

describe('SentenceTables', () => {
  it("chooses an entity's sentences exactly as scoring them one by one does, question after question, and keeps one table per spans list", async () => {
    const { index, spans } = await hubIndex();
    expect(spans.length).toBeGreaterThanOrEqual(TABLE_MIN_SPANS);
    const facts = new GraphFacts(index.graph, undefined);
    await facts.fetch(['hub', 'other'], ['r']);
    const tables = new SentenceTables();
    for (const question of QUESTIONS) {
      const relevance = passageRelevance(index, question);
      expect(relevance).toBeDefined();
      // The numbered scores are the ones `chunk` gives, chunk by chunk.
      const numbered = chunkScoresByNumber(relevance!);
      expect(numbered).toBeDefined();
      for (const [chunkId, number] of numbered!.chunkNumber) expect(numbered!.scores[number]).toBe(relevance!.chunk(chunkId));
      for (const passage of [{ relevance: relevance!, weight: 3, entityFloor: 0.3 }, { relevance: relevance!, weight: 1, entityFloor: 0 }, undefined]) {
        const options = {
          facts,
          chunks: index.chunks,
          question,
          sentenceTokens: new SpanFacts(tokensOfSentence),
          spansPerUnit: 2,
          spansPerEntity: 12,
          passage,
        };
        const withTables = unitSpans({ ...options, sentenceTables: tables })('entity:hub');
        const oneByOne = unitSpans(options)('entity:hub');
        expect(withTables).toEqual(oneByOne);
        expect(withTables).toHaveLength(passage?.entityFloor ? withTables!.length : 12);
        // A list below the table size goes the old way and gets no table.
        expect(unitSpans({ ...options, sentenceTables: tables })('entity:other')).toEqual(unitSpans(options)('entity:other'));
      }
    }
    // The questions do not agree on the best sentences: the same table served different choices.
    const best = QUESTIONS.map((question) =>
      JSON.stringify(
        unitSpans({
          facts,
          chunks: index.chunks,
          question,
          sentenceTokens: new SpanFacts(tokensOfSentence),
          sentenceTables: tables,
          spansPerUnit: 2,
          spansPerEntity: 12,
        })('entity:hub'),
      ),
    );
    expect(new Set(best).size).toBe(QUESTIONS.length);
    expect(tables.size.tables).toBe(1);
  });

  it('makes a new table when the spans list it was keyed by changed length, and drops old tables past its limit', async () => {
    const { index, spans } = await hubIndex();
    const question = 'Which kernel driver pages memory?';
    const relevance = passageRelevance(index, question)!;
    const tables = new SentenceTables({ limit: 1 });
    const score = (list: TextSpan[]) => {
      const out = new Float64Array(list.length);
      tables.score(index.chunks, list, new Set(['kernel', 'driver', 'page', 'memory']), { relevance, weight: 0 }, out, new Float64Array(list.length));
      return [...out];
    };
    const expected = (list: TextSpan[]) =>
      list.map((span) => {
        const tokens = tokensOfSentence(index.chunks, span);
        return ['kernel', 'driver', 'page', 'memory'].filter((token) => tokens.has(token)).length;
      });
    const list = spans.slice(0, 200);
    expect(score(list)).toEqual(expected(list));
    list.push(...spans.slice(300, 320));
    expect(score(list)).toEqual(expected(list));
    const other = spans.slice(100, 250);
    expect(score(other)).toEqual(expected(other));
    // A limit of 1 keeps only the table just made.
    expect(tables.size.tables).toBe(1);
  });

  it("finds a unit's table by its key in a spans array made afresh, and makes a new one when the key's spans differ", async () => {
    const { index, spans } = await hubIndex();
    let reads = 0;
    const chunks: ChunkStore = {
      ...storeOver(index),
      getChunk: (id) => {
        reads += 1;
        return index.chunks.getChunk(id);
      },
    };
    const question = new Set(['kernel', 'driver', 'page', 'memory']);
    const tables = new SentenceTables();
    const score = (list: readonly TextSpan[], key?: string) => {
      const out = new Float64Array(list.length);
      tables.score(chunks, list, question, undefined, out, new Float64Array(list.length), key);
      return [...out];
    };
    const expected = (list: readonly TextSpan[]) =>
      list.map((span) => {
        const tokens = tokensOfSentence(index.chunks, span);
        return [...question].filter((token) => tokens.has(token)).length;
      });
    expect(score(spans, 'entity:hub')).toEqual(expected(spans));
    expect(reads).toBeGreaterThan(0);
    reads = 0;
    // The same sentences in new objects (as a graph store that builds the node again gives them): no sentence read again.
    const copy = spans.map((span) => ({ ...span }));
    expect(score(copy, 'entity:hub')).toEqual(expected(spans));
    expect(reads).toBe(0);
    // Without the key, a new array is a new table.
    expect(score(copy)).toEqual(expected(spans));
    expect(reads).toBeGreaterThan(0);
    expect(tables.size.tables).toBe(2);
    // The key with other sentences (one offset moved): a new table, right for them.
    reads = 0;
    const moved = spans.map((span, i) => (i === 5 ? { ...span, end: span.end - 1 } : span));
    expect(score(moved, 'entity:hub')).toEqual(expected(moved));
    expect(reads).toBeGreaterThan(0);
  });

  it("reads a sentence's tokens from the store's sentence tokens when it has them, of its own tokenizer only, and tokenizes the sentences they lack", async () => {
    const { index, spans } = await hubIndex();
    const chunkList = Array.from({ length: 12 }, (_, d) => index.chunks.getChunk(`doc${d}#0`)!);
    const withTokens = (sentenceTokens: SentenceTokens) => storeOver(index, sentenceTokens);
    const question = new Set(['kernel', 'driver', 'page', 'memory', 'café', 'straße']);
    const score = (chunks: ChunkStore) => {
      const out = new Float64Array(spans.length);
      new SentenceTables().score(chunks, spans, question, undefined, out, new Float64Array(spans.length));
      return [...out];
    };
    const expected = spans.map((span) => {
      const tokens = tokensOfSentence(index.chunks, span);
      return [...question].filter((token) => tokens.has(token)).length;
    });
    expect(score(index.chunks)).toEqual(expected);
    // Every sentence held, or every other one (the rest tokenized from the text): the same scores.
    expect(score(withTokens(createSentenceTokens({ chunks: chunkList, spans })))).toEqual(expected);
    expect(score(withTokens(createSentenceTokens({ chunks: chunkList, spans: spans.filter((_, i) => i % 2 === 0) })))).toEqual(expected);
    // Tokens made from other texts are read as they are (so the scores change) …
    const other = chunkList.map((chunk) => ({ id: chunk.id, text: chunk.text.replace(/[A-Za-z]+/g, 'kernel') }));
    const wrong = createSentenceTokens({ chunks: other, spans });
    const misread = score(withTokens(wrong));
    expect(misread).not.toEqual(expected);
    expect(misread.every((value) => value <= 1)).toBe(true);
    // … unless another tokenizer made them.
    const foreign = new SentenceTokenTable({
      tokenizer: 'another-tokenizer/1',
      vocabulary: wrong.vocabulary,
      chunkIds: chunkList.map((chunk) => chunk.id),
      chunkStart: wrong.chunkStart,
      starts: wrong.starts,
      ends: wrong.ends,
      tokenStart: wrong.tokenStart,
      tokens: wrong.tokens,
    });
    expect(score(withTokens(foreign))).toEqual(expected);
  });

  it("reads the spans' chunks by number when the graph gives them: the same scores, each chunk looked up by id once per store", async () => {
    const { index, spans } = await hubIndex();
    const chunkList = Array.from({ length: 12 }, (_, d) => index.chunks.getChunk(`doc${d}#0`)!);
    const table = createSentenceTokens({ chunks: chunkList, spans: spans.filter((_, i) => i % 4 !== 0) });
    let lookups = 0;
    const counted: SentenceTokens = {
      tokenizer: table.tokenizer,
      vocabulary: table.vocabulary,
      tokenStart: table.tokenStart,
      tokens: table.tokens,
      sentence: (chunkId, start, end) => table.sentence(chunkId, start, end),
      tokenNumber: (token) => table.tokenNumber(token),
      sentenceInChunk: (chunk, start, end) => table.sentenceInChunk(chunk, start, end),
      chunkNumber: (chunkId) => {
        lookups += 1;
        return table.chunkNumber(chunkId);
      },
    };
    const chunks = storeOver(index, counted);
    // Three units naming the same twelve chunks: the whole list and its halves.
    const units: [string, TextSpan[]][] = [
      ['entity:hub', spans],
      ['relation:a', spans.slice(0, 180)],
      ['relation:b', spans.slice(180)],
    ];
    const byNumber = (list: readonly TextSpan[]) => (numbering: ReadonlyMap<string, number>) =>
      Int32Array.from(list, (span) => numbering.get(span.chunkId) ?? -1);
    const question = new Set(['kernel', 'driver', 'page', 'memory', 'café']);
    const relevance = passageRelevance(index, QUESTIONS[0])!;
    expect(chunkScoresByNumber(relevance)).toBeDefined();
    const scored = (
      tables: SentenceTables,
      list: readonly TextSpan[],
      key: string,
      spanChunks?: (numbering: ReadonlyMap<string, number>) => Int32Array | undefined,
    ) => {
      const out = new Float64Array(list.length);
      const chunkRelevance = new Float64Array(list.length);
      tables.score(chunks, list, question, { relevance, weight: 2 }, out, chunkRelevance, key, spanChunks);
      return [[...out], [...chunkRelevance]];
    };
    const plain = new SentenceTables();
    const expected = units.map(([key, list]) => scored(plain, list, key));
    const byId = lookups;
    expect(byId).toBeGreaterThan(12);
    // The chunks' passages differ (a chunk read for another would change the scores).
    expect(new Set(expected[0][1]).size).toBeGreaterThan(5);
    lookups = 0;
    const numbered = new SentenceTables();
    for (const [u, [key, list]] of units.entries()) expect(scored(numbered, list, key, byNumber(list))).toEqual(expected[u]);
    expect(lookups).toBe(12);
    // Numbers that are not one per span are not read: the same scores, from lookups by id.
    lookups = 0;
    const short = new SentenceTables();
    for (const [u, [key, list]] of units.entries()) expect(scored(short, list, key, () => new Int32Array(list.length - 1))).toEqual(expected[u]);
    expect(lookups).toBe(byId);
  });

  it("reads a unit's sentences from the graph's span columns when it gives them: the same choices, no span built but the ones kept", async () => {
    const { index, spans } = await hubIndex();
    const dir = await mkdtemp(join(tmpdir(), 'mosaic-span-columns-'));
    afterAll(() => rm(dir, { recursive: true, force: true }));
    await saveGraphBinary({ graph: (index.graph as GraphologyGraphStore).graph, path: join(dir, 'graph.bin') });
    const compact = await loadGraphBinary({ path: join(dir, 'graph.bin') });
    // The compact store, counting what is read of it: nodes asked with spans, the hub's spans read one by one, sentence numbers.
    let askedWithSpans = 0;
    let spansRead = 0;
    let numbersRead = 0;
    const counted: GraphStore = {
      specificationVersion: 'v1',
      nodeCount: compact.nodeCount,
      edgeCount: compact.edgeCount,
      hubDegree: compact.hubDegree,
      maxDegree: compact.maxDegree,
      getNodes: (ids: readonly string[], options?: GetNodesOptions) => {
        if (options?.spans !== false) askedWithSpans += 1;
        return compact.getNodes(ids, options);
      },
      getEdges: (ids) => compact.getEdges(ids),
      neighbors: (ids) => compact.neighbors(ids),
      spanChunkNumbers: (kind, id, numbering) => compact.spanChunkNumbers(kind, id, numbering),
      spanColumns: (kind, id) => {
        const columns = compact.spanColumns(kind, id);
        if (!columns) return undefined;
        const read: SpanColumns = {
          count: columns.count,
          chunkId: (i) => {
            if (id === 'hub') spansRead += 1;
            return columns.chunkId(i);
          },
          start: (i) => columns.start(i),
          end: (i) => columns.end(i),
          sentenceNumbers: (sentences) => {
            numbersRead += 1;
            return columns.sentenceNumbers!(sentences);
          },
        };
        return read;
      },
    };
    const chunkList = Array.from({ length: 12 }, (_, d) => index.chunks.getChunk(`doc${d}#0`)!);
    // Every sentence in the store's table (read by number), or every fourth one missing (the
    // columns then give −1 for those, and the unit's spans are built and tokenized as before).
    for (const held of [spans, spans.filter((_, i) => i % 4 !== 0)]) {
      const chunks = storeOver(index, createSentenceTokens({ chunks: chunkList, spans: held }));
      const byArray = new GraphFacts(index.graph, undefined);
      const byColumns = new GraphFacts(counted, undefined);
      await byArray.fetch(['hub', 'other'], ['r']);
      await byColumns.fetch(['hub', 'other'], ['r']);
      expect(askedWithSpans).toBe(0);
      expect(byColumns.nodes.get('hub')).not.toHaveProperty('spans');
      expect(byColumns.nodes.get('hub')!.chunkIds).toEqual(byArray.nodes.get('hub')!.chunkIds);
      const arrayTables = new SentenceTables();
      const columnTables = new SentenceTables();
      let kept = 0;
      spansRead = 0;
      numbersRead = 0;
      for (const question of QUESTIONS) {
        const relevance = passageRelevance(index, question)!;
        for (const passage of [{ relevance, weight: 3, entityFloor: 0.3 }, { relevance, weight: 1, entityFloor: 0 }, undefined]) {
          const options = { chunks, question, sentenceTokens: new SpanFacts(tokensOfSentence), spansPerUnit: 2, spansPerEntity: 12, passage };
          for (const unit of ['entity:hub', 'entity:other', 'relation:r']) {
            const expected = unitSpans({ ...options, facts: byArray, sentenceTables: arrayTables })(unit);
            expect(expected!.length).toBeGreaterThan(0);
            expect(unitSpans({ ...options, facts: byColumns, sentenceTables: columnTables })(unit)).toEqual(expected);
            if (unit === 'entity:hub') kept += expected!.length;
          }
        }
      }
      expect(numbersRead).toBeGreaterThan(0);
      if (held === spans) {
        // Of the hub's 360 sentences, only the kept ones were read: the others were ranked from numbers.
        expect(spansRead).toBe(kept);
        expect(columnTables.size.tables).toBe(1);
      } else {
        // A sentence the table lacks: the hub's spans were built from the columns (table after table) and tokenized.
        expect(spansRead).toBeGreaterThan(kept + spans.length);
      }
    }
  });

  it.each([
    ['a store that numbers its words and chunks (question tokens marked by its numbers)', (table: SentenceTokenTable): SentenceTokens => table],
    [
      'a store with only the required members (words numbered as they are first met)',
      (table: SentenceTokenTable): SentenceTokens => ({
        tokenizer: table.tokenizer,
        vocabulary: table.vocabulary,
        tokenStart: table.tokenStart,
        tokens: table.tokens,
        sentence: (chunkId, start, end) => table.sentence(chunkId, start, end),
      }),
    ],
  ])('keeps scoring right when one instance reads stored sentences for question after question: %s', async (_, storeOf) => {
    const { index, spans } = await hubIndex();
    const chunkList = Array.from({ length: 12 }, (_, d) => index.chunks.getChunk(`doc${d}#0`)!);
    // Every third sentence tokenized from its text, the others read from the store.
    const chunks = storeOver(index, storeOf(createSentenceTokens({ chunks: chunkList, spans: spans.filter((_, i) => i % 3 !== 0) })));
    const tables = new SentenceTables();
    const halves = [spans.slice(0, Math.floor(spans.length / 2)), spans.slice(Math.floor(spans.length / 2))];
    const questions = [
      new Set(['unseenword']),
      new Set(['memory', 'unseenword']),
      new Set(['kernel', 'driver']),
      new Set(['page', 'memory', 'kernel']),
      new Set(['café', 'straße', 'unseenword']),
      new Set(['kernel', 'driver']),
    ];
    let nonZero = 0;
    let passages = 0;
    for (const question of questions) {
      for (const [h, list] of halves.entries()) {
        const out = new Float64Array(list.length);
        tables.score(chunks, list, question, undefined, out, new Float64Array(list.length), `unit:${h}`);
        const expected = list.map((span) => {
          const tokens = tokensOfSentence(index.chunks, span);
          return [...question].filter((token) => tokens.has(token)).length;
        });
        expect([...out]).toEqual(expected);
        nonZero += expected.filter((value) => value > 0).length;
        // With the passage term: each sentence's chunk relevance (read by number), weighted in.
        const relevance = passageRelevance(index, `${[...question].join(' ')} ${QUESTIONS[h]}`)!;
        const withPassage = new Float64Array(list.length);
        const chunkRelevance = new Float64Array(list.length);
        tables.score(chunks, list, question, { relevance, weight: 2 }, withPassage, chunkRelevance, `unit:${h}`);
        expect([...chunkRelevance]).toEqual(list.map((span) => relevance.chunk(span.chunkId)));
        expect([...withPassage]).toEqual(expected.map((value, i) => value + 2 * chunkRelevance[i]));
        passages += chunkRelevance.filter((value) => value > 0).length;
      }
    }
    expect(nonZero).toBeGreaterThan(0);
    expect(passages).toBeGreaterThan(0);
    expect(tables.size.tables).toBe(2);
  });
});
