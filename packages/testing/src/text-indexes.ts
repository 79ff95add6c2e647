import type { Encoder, LexicalIndex, SourceWindow, VectorIndex } from '@mosaic/spec';
import { createBm25Index, createInMemoryVectorIndex } from '@mosaic/vector-index';

/** The vector indexes (and BM25 indexes) of a test index, over the texts `buildIndex` embeds. */
export interface TextIndexes {
  entityIndex: VectorIndex;
  relationIndex: VectorIndex;
  windowIndex: VectorIndex;
  windowVector: (id: string) => Float32Array | undefined;
  lexical?: Record<'entities' | 'relations' | 'windows', LexicalIndex>;
}

/**
 * Entity, relation and window texts → in-memory vector indexes (one batched encoder call, labels
 * in text order), the window vectors by id, and with `lexical` BM25 indexes over the same texts.
 */
export async function buildTextIndexes(options: {
  encoder: Encoder;
  entityTexts: readonly string[];
  relationTexts: readonly string[];
  windows: readonly SourceWindow[];
  lexical: boolean;
}): Promise<TextIndexes> {
  const { encoder, entityTexts, relationTexts, windows } = options;
  const windowTexts = windows.map((window) => window.text);
  const vectors = await encoder.encode([...entityTexts, ...relationTexts, ...windowTexts]);
  const entityVectors = vectors.slice(0, entityTexts.length);
  const relationVectors = vectors.slice(entityTexts.length, entityTexts.length + relationTexts.length);
  const windowVectors = vectors.slice(entityTexts.length + relationTexts.length);
  const entityIndex = createInMemoryVectorIndex({ dimension: encoder.dimension });
  const relationIndex = createInMemoryVectorIndex({ dimension: encoder.dimension });
  const windowIndex = createInMemoryVectorIndex({ dimension: encoder.dimension });
  await entityIndex.add(entityVectors);
  await relationIndex.add(relationVectors);
  await windowIndex.add(windowVectors);
  const windowVectorById = new Map(windows.map((window, i) => [window.id, windowVectors[i]]));
  const lexical = options.lexical
    ? {
        entities: createBm25Index({ documents: [...entityTexts] }),
        relations: createBm25Index({ documents: [...relationTexts] }),
        windows: createBm25Index({ documents: windowTexts }),
      }
    : undefined;
  return { entityIndex, relationIndex, windowIndex, windowVector: (id) => windowVectorById.get(id), ...(lexical ? { lexical } : {}) };
}
