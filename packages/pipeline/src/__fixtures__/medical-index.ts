// A hand-built index over the fixture corpus's Medical page (@mosaic/testing), with a small graph
// of the facts the fixture questions ask about. Chunks are sentence-aligned, about 500 characters.
import { FIXTURE_DOCUMENTS, FIXTURE_QUESTIONS } from '@mosaic/testing';
import { buildHandIndex, medicalFixtureIndexOptions, type HandBuiltIndex } from '@mosaic/testing/hand-built-index';

export const MEDICAL_TEXT = FIXTURE_DOCUMENTS.find((document) => document.corpus_name === 'Medical')!.context;

/** The multi-hop question "Which drug treats the condition that is caused by … veltrane dust?" and its two evidence statements. */
export const MULTI_HOP = (() => {
  const question = FIXTURE_QUESTIONS.find((q) => q.id === 'Fixture-Medical-01')!;
  return {
    id: question.id,
    question: question.question,
    // Verbatim sentences of the page (the gold evidence paraphrases the second one slightly).
    facts: ['Prolonged exposure to veltrane dust causes Morrow syndrome', 'Morrow syndrome is treated with calditrex'],
  };
})();

export async function buildMedicalIndex(options: { lexical?: boolean } = {}): Promise<HandBuiltIndex> {
  return buildHandIndex(medicalFixtureIndexOptions(options));
}
