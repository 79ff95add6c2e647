// The recorded fixture index of @mosaic/testing (built by @mosaic/indexing's composition), limited to
// the fixture corpus's Medical page: real chunks and windows, the graph the fixture extraction finds.
import { FIXTURE_DOCUMENTS, FIXTURE_QUESTIONS, fixtureEntityId, loadFixtureIndex, type HandBuiltIndex } from '@mosaic/testing';

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
  return loadFixtureIndex({ documents: ['Medical'], lexical: options.lexical ?? false });
}

/** The id of the Medical index's entity named `name` (case-insensitive). */
export const medicalEntityId = fixtureEntityId;
