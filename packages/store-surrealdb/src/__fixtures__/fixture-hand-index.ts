// A hand-built index over the three fixture pages of @mosaic/testing with the graph an ideal
// extractor finds (FIXTURE_GRAPH): sentence-aligned chunks of about 400 characters, windows of
// 800 / 400 characters, hashing encoder, BM25 indexes.
import type { Chunk } from '@mosaic/spec';
import { FIXTURE_DOCUMENTS, FIXTURE_GRAPH } from '@mosaic/testing';
import { buildHandIndex, type HandBuiltIndex } from '@mosaic/testing/hand-built-index';

function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

function sentenceChunks(text: string, documentId: string, target = 400): Chunk[] {
  const chunks: Chunk[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + target);
    if (end < text.length) {
      const stop = text.indexOf('. ', end);
      end = stop === -1 ? text.length : stop + 2;
    }
    chunks.push({ id: `${documentId}#${chunks.length}`, documentId, start, end, text: text.slice(start, end) });
    start = end;
  }
  return chunks;
}

export async function buildFixtureIndex(): Promise<HandBuiltIndex> {
  const documents = FIXTURE_DOCUMENTS.map((document) => ({ id: document.corpus_name, text: document.context }));
  return buildHandIndex({
    corpus: 'Fixture',
    documents,
    chunks: documents.flatMap((document) => sentenceChunks(document.text, document.id)),
    entities: FIXTURE_GRAPH.entities.map((entity) => ({
      id: `e-${slug(entity.name)}`,
      name: entity.name,
      type: entity.type,
      description: entity.description,
      aliases: (entity.mentions ?? []).filter((mention) => mention !== entity.name),
    })),
    relations: FIXTURE_GRAPH.relations.map((relation, i) => ({
      id: `r${String(i).padStart(2, '0')}-${slug(relation.label)}`,
      source: `e-${slug(relation.source)}`,
      target: `e-${slug(relation.target)}`,
      label: relation.label,
      keywords: relation.keywords,
      description: relation.description,
    })),
    window: { size: 800, stride: 400 },
    lexical: true,
  });
}
