import { buildHandIndex, type BuildHandIndexOptions } from '@mosaic/testing/hand-built-index';
import { BOUND_TABLE_MIN } from './neighbor-bounds.js';

// A hub with more relations than BOUND_TABLE_MIN, stated in sentences of eight documents about
// different things, so that the BM25 and passage terms of r(e) differ from relation to relation.
const TOPICS = ['fever and pain in children', 'the harbour and its ships', 'trade with the northern towns', 'wounds that heal slowly'];
const LABELS = ['cures fever', 'borders the harbour', 'treats pain', 'trades with', 'reduces fever in children', 'faces', 'heals'];
export const SIZE = BOUND_TABLE_MIN + 44;

export async function hubIndex() {
  const documents = Array.from({ length: 8 }, (_, d) => {
    const sentences = Array.from({ length: SIZE / 8 + 1 }, (_, s) => `Harbour item ${d}-${s} concerns ${TOPICS[(d + s) % TOPICS.length]}.`);
    return { id: `doc${d}`, text: sentences.join(' '), sentences };
  });
  const spanOf = (i: number) => {
    const document = documents[i % 8];
    const sentence = document.sentences[Math.floor(i / 8)];
    const start = document.text.indexOf(sentence);
    return { chunkId: `${document.id}#0`, start, end: start + sentence.length };
  };
  const relations: BuildHandIndexOptions['relations'] = Array.from({ length: SIZE }, (_, i) => ({
    id: `r${String(i).padStart(3, '0')}`,
    source: 'H',
    target: `L${i}`,
    // A rare label: a question on it sets few of the labels.
    label: i % 25 === 0 ? 'anchors ships' : LABELS[i % LABELS.length],
    chunkIds: [`doc${i % 8}#0`],
    // Every fifth relation has no sentences: its passage is read from its chunk ids; every third is
    // stated in three documents, its passage the best of them.
    ...(i % 5 === 0 ? {} : { spans: i % 3 === 1 ? [spanOf(i), spanOf((i + 1) % SIZE), spanOf((i + 2) % SIZE)] : [spanOf(i)] }),
  }));
  return buildHandIndex({
    documents: documents.map(({ id, text }) => ({ id, text })),
    chunks: documents.map(({ id, text }) => ({ id: `${id}#0`, documentId: id, start: 0, end: text.length, text })),
    entities: [{ id: 'H', name: 'Harbour' }, ...Array.from({ length: SIZE }, (_, i) => ({ id: `L${i}`, name: `Leaf ${i}` }))],
    relations,
    lexical: true,
  });
}
