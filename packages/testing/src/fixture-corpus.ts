// The fixture corpus of the tests is the sample corpus that ships with @mosaic/evaluation
// (`@mosaic/evaluation/sample`), the one `mosaic demo` falls back to, under its test-kit names.
export {
  SAMPLE_DOCUMENTS as FIXTURE_DOCUMENTS,
  SAMPLE_MULTI_HOP_IDS as FIXTURE_MULTI_HOP_IDS,
  SAMPLE_QUESTIONS as FIXTURE_QUESTIONS,
  writeSampleCorpus as writeFixtureCorpus,
} from '@mosaic/evaluation/sample';
export type {
  SampleCorpusFiles as FixtureCorpusFiles,
  SampleDocument as FixtureDocument,
  SampleQuestion as FixtureQuestion,
  SampleQuestionType as FixtureQuestionType,
  WriteSampleCorpusOptions as WriteFixtureCorpusOptions,
} from '@mosaic/evaluation/sample';
