import type { Answer, Generator, Question, RankedWindow } from '@mosaic/spec';
import { createConformanceRun, createStageFixture, ensure, ensureAbortHonoured, type ConformanceReport, type StageFixture } from '@mosaic/testing/conformance';

export { createStageFixture, type ConformanceReport, type StageFixture } from '@mosaic/testing/conformance';

export interface GeneratorConformanceOptions {
  generator: Generator;
  /** Question to ask. Default: the stage fixture's question. */
  question?: Question;
  /** Windows to hand over. Default: the stage fixture's three windows. */
  windows?: readonly RankedWindow[];
  /** Where the defaults come from (default: `createStageFixture()` of @mosaic/testing). */
  fixture?: StageFixture;
}

/** @deprecated use ConformanceReport; kept for the 0.1 name. */
export type GeneratorConformanceResult = ConformanceReport;

/**
 * Check a Generator against the contract every generator must keep: a version tag and id; an
 * Answer with text, a generator name and an `extractive` flag; citations that point at the
 * windows handed over (1-based, matching window ids, no duplicates); empty windows accepted
 * (and no citations then); an aborted signal rejected with MosaicAbortedError. Returns a report.
 */
export async function checkGeneratorConformance(options: GeneratorConformanceOptions): Promise<ConformanceReport> {
  const { generator } = options;
  const fixture = options.question && options.windows ? undefined : (options.fixture ?? (await createStageFixture()));
  const question = options.question ?? fixture!.context.question;
  const windows = options.windows ?? fixture!.windows;
  const run = createConformanceRun(`Generator ${String(generator.id)}`);
  let answer: Answer | undefined;

  await run.check('identifies itself with specificationVersion v1 and an id', () => {
    ensure(generator.specificationVersion === 'v1', `specificationVersion is ${String(generator.specificationVersion)}, expected 'v1'`);
    ensure(typeof generator.id === 'string' && generator.id.length > 0, 'id is empty');
  });
  await run.check('returns an answer with text, a generator name and an extractive flag', async () => {
    answer = await generator.generate({ question, windows });
    ensure(typeof answer?.text === 'string' && answer.text.trim() !== '', 'answer text is empty');
    ensure(typeof answer.generator === 'string' && answer.generator !== '', 'answer.generator is empty');
    ensure(typeof answer.extractive === 'boolean', 'answer.extractive is not a boolean');
  });
  await run.check('citations point at the windows handed over, each once', () => {
    ensure(answer, 'generate() failed');
    ensure(Array.isArray(answer.citations), 'answer.citations is not an array');
    const seen = new Set<number>();
    for (const citation of answer.citations) {
      ensure(
        Number.isInteger(citation.window) && citation.window >= 1 && citation.window <= windows.length,
        `citation window ${citation.window} is outside 1..${windows.length}`,
      );
      ensure(
        windows[citation.window - 1]!.id === citation.windowId,
        `citation [${citation.window}] has windowId ${citation.windowId}, expected ${windows[citation.window - 1]!.id}`,
      );
      ensure(!seen.has(citation.window), `citation [${citation.window}] is duplicated`);
      seen.add(citation.window);
    }
  });
  await run.check('accepts no windows, and cites nothing then', async () => {
    const empty = await generator.generate({ question, windows: [] });
    ensure(empty.citations.length === 0, 'an answer without windows has citations');
  });
  await run.check('rejects with MosaicAbortedError when the signal is already aborted', () =>
    ensureAbortHonoured((abortSignal) => generator.generate({ question, windows, abortSignal })),
  );
  return run.report();
}
