// A hand-built index over the fixture corpus's Medical page (@mosaic/testing), with a small graph
// of the facts the fixture questions ask about. Chunks are sentence-aligned, about 500 characters.
import { FIXTURE_DOCUMENTS, FIXTURE_QUESTIONS } from '@mosaic/testing';
import { buildHandIndex, sentenceChunks, type HandBuiltIndex } from '@mosaic/testing/hand-built-index';

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
  return buildHandIndex({
    corpus: 'Medical',
    documents: [{ id: 'medical', text: MEDICAL_TEXT }],
    chunks: sentenceChunks(MEDICAL_TEXT, 'medical', 500),
    entities: [
      { id: 'veltrane', name: 'veltrane dust', description: 'dust from veltrane stone cut in quarries' },
      { id: 'morrow', name: 'Morrow syndrome', description: 'a rare inflammatory disorder of the connective tissue' },
      { id: 'calditrex', name: 'calditrex', description: 'an anti-inflammatory drug taken daily for six months' },
      { id: 'quarry', name: 'Quarry workers', description: 'workers who cut veltrane stone' },
      { id: 'stiffness', name: 'joint stiffness', description: 'a common symptom' },
      { id: 'sweats', name: 'Night sweats', description: 'a symptom' },
      { id: 'mx7', name: 'MX-7', description: 'a protein marker found by a blood test' },
      { id: 'liver', name: 'liver function test', description: 'a monthly blood test' },
      { id: 'harlow', name: 'Harlow fever', description: 'spreads through water from shallow wells' },
      { id: 'dunmere', name: 'Dunmere fever', description: 'carried by marsh flies' },
    ],
    relations: [
      { id: 'r-causes', source: 'veltrane', target: 'morrow', label: 'causes', description: 'prolonged exposure to veltrane dust causes Morrow syndrome' },
      { id: 'r-treated', source: 'morrow', target: 'calditrex', label: 'is treated with', description: 'Morrow syndrome is treated with calditrex' },
      { id: 'r-risk', source: 'quarry', target: 'veltrane', label: 'are exposed to', description: 'quarry workers who cut veltrane stone are most at risk' },
      { id: 'r-stiff', source: 'morrow', target: 'stiffness', label: 'has symptom', description: 'common symptoms of Morrow syndrome include joint stiffness' },
      { id: 'r-sweats', source: 'morrow', target: 'sweats', label: 'has symptom', description: 'night sweats are a symptom of Morrow syndrome' },
      { id: 'r-mx7', source: 'morrow', target: 'mx7', label: 'is diagnosed with', description: 'Morrow syndrome is diagnosed with a blood test for MX-7' },
      { id: 'r-liver', source: 'calditrex', target: 'liver', label: 'requires', description: 'patients taking calditrex need a liver function test every month' },
    ],
    lexical: options.lexical ?? false,
  });
}
