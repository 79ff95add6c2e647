// The retriever with the real @langchain/core: invoke, batch, a runnable chain, callbacks and abort,
// over a small index built through the real index composition.
import { Document } from '@langchain/core/documents';
import { RunnableLambda } from '@langchain/core/runnables';
import { createMosaic } from '@mosaic/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSmallIndex, type SmallIndex } from '@mosaic/server/testing';
import { MosaicRetriever } from './mosaic-retriever.js';

const QUESTION = 'Which drug treats the condition that is caused by prolonged exposure to veltrane dust?';

let small: SmallIndex;

beforeAll(async () => {
  small = await buildSmallIndex();
}, 180_000);

afterAll(async () => {
  await small?.remove();
});

describe('MosaicRetriever', () => {
  it('returns the ranked windows as Documents with their metadata', async () => {
    const mosaic = createMosaic({ index: small.index });
    const retriever = new MosaicRetriever({ mosaic, windows: 4 });
    const documents = await retriever.invoke(QUESTION);
    const expected = await mosaic.retrieve({ question: QUESTION, windows: 4 });
    expect(documents).toHaveLength(expected.windows.length);
    expect(documents[0]).toBeInstanceOf(Document);
    expect(documents.map((d) => d.pageContent)).toEqual(expected.windows.map((w) => w.text));
    expect(documents.map((d) => d.metadata.rank)).toEqual(documents.map((_, i) => i + 1));
    expect(documents[0]!.id).toBe(expected.windows[0]!.id);
    expect(documents[0]!.metadata).toMatchObject({
      windowId: expected.windows[0]!.id,
      documentId: expected.windows[0]!.documentId,
      score: expected.windows[0]!.score,
    });
    expect(documents.some((d) => /veltrane/i.test(d.pageContent))).toBe(true);
  });

  it('runs in a chain, in batches, and reports to callbacks', async () => {
    const retriever = new MosaicRetriever({ mosaic: createMosaic({ index: small.index }), windows: 3 });
    const chain = retriever.pipe(RunnableLambda.from((documents: Document[]) => documents.map((d) => d.metadata.documentId as string)));
    const ids = await chain.invoke(QUESTION);
    expect(ids.length).toBeGreaterThan(0);
    const batched = await retriever.batch([QUESTION, 'What is Morrow syndrome?']);
    expect(batched).toHaveLength(2);
    const seen: string[] = [];
    await retriever.invoke(QUESTION, {
      callbacks: [
        { handleRetrieverStart: (_r, query) => void seen.push(`start:${query}`), handleRetrieverEnd: (docs) => void seen.push(`end:${docs.length}`) },
      ],
    });
    expect(seen[0]).toBe(`start:${QUESTION}`);
    expect(seen[1]).toMatch(/^end:[1-3]$/);
  });

  it('aborts the pipeline with the signal of the call', async () => {
    const retriever = new MosaicRetriever({ mosaic: createMosaic({ index: small.index }) });
    const controller = new AbortController();
    controller.abort();
    await expect(retriever.invoke(QUESTION, { signal: controller.signal })).rejects.toMatchObject({ name: 'MosaicAbortedError' });
  });
});
