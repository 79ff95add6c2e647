// A hand-built index over the three fixture pages of @mosaic/testing with the graph an ideal
// extractor finds (FIXTURE_GRAPH): sentence-aligned chunks of about 400 characters, windows of
// 800 / 400 characters, hashing encoder, BM25 indexes.
import { FIXTURE_DOCUMENTS, FIXTURE_GRAPH } from '@mosaic/testing';
import { buildHandIndex, sentenceChunks, type HandBuiltIndex } from '@mosaic/testing/hand-built-index';

function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

export async function buildFixtureIndex(): Promise<HandBuiltIndex> {
  const documents = FIXTURE_DOCUMENTS.map((document) => ({ id: document.corpus_name, text: document.context }));
  return buildHandIndex({
    corpus: 'Fixture',
    documents,
    chunks: documents.flatMap((document) => sentenceChunks(document.text, document.id, 400)),
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
