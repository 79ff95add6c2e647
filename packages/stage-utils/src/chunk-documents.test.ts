import type { Chunk } from '@mosaic/spec';
import { describe, expect, it } from 'vitest';
import { ChunkDocuments } from './chunk-documents.js';

const chunk = (id: string, documentId: string): Chunk => ({ id, documentId, text: `text of ${id}`, start: 0, end: 10 });

describe('ChunkDocuments', () => {
  const chunks = [chunk('c1', 'b.md'), chunk('c2', 'a.md'), chunk('c3', 'b.md'), chunk('c4', 'c.md')];

  it('lists the documents of the chunk ids each once, in the order first met, leaving out unknown ids', () => {
    const documents = new ChunkDocuments(() => chunks);
    expect(documents.documentsOf(['c3', 'nope', 'c2', 'c1', 'c3', 'c4'])).toEqual(['b.md', 'a.md', 'c.md']);
    // The next list starts afresh: documents listed before are listed again.
    expect(documents.documentsOf(['c4', 'c1'])).toEqual(['c.md', 'b.md']);
    expect(documents.documentsOf([])).toEqual([]);
    expect(documents.documentsOf(['nope'])).toEqual([]);
  });

  it('answers what getChunk(id).documentId gives for every id, over many lists', () => {
    const many = Array.from({ length: 500 }, (_, i) => chunk(`c${i}`, `doc-${i % 37}`));
    const byId = new Map(many.map((c) => [c.id, c]));
    const documents = new ChunkDocuments(() => many);
    for (let list = 0; list < 50; list += 1) {
      const ids = Array.from({ length: (list * 7) % 90 }, (_, i) => `c${(list * 31 + i * 13) % 520}`);
      const expected = [...new Set(ids.map((id) => byId.get(id)?.documentId).filter((d): d is string => d !== undefined))];
      expect(documents.documentsOf(ids)).toEqual(expected);
    }
  });

  it('reads the chunks once, when first asked', () => {
    let reads = 0;
    const documents = new ChunkDocuments(() => {
      reads += 1;
      return chunks;
    });
    expect(reads).toBe(0);
    documents.documentsOf(['c1']);
    documents.documentsOf(['c2']);
    expect(reads).toBe(1);
  });
});
