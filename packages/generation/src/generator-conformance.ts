import type { Generator, Question, RankedWindow } from '@mosaic/spec';

export interface GeneratorConformanceOptions {
  generator: Generator;
  /** Question to ask. Default: a question answered by the default windows. */
  question?: Question;
  /** Windows to hand over. Default: three small windows. */
  windows?: readonly RankedWindow[];
}

export interface GeneratorConformanceResult {
  passed: boolean;
  /** One line per violated expectation. */
  failures: string[];
}

const SAMPLE_WINDOWS: readonly RankedWindow[] = [
  { id: 'w-a', documentId: 'd', start: 0, end: 80, score: 0.9, evidenceIds: [], text: 'The lighthouse at Kestrel Point was built in 1820. It guides ships past the reef.' },
  { id: 'w-b', documentId: 'd', start: 800, end: 880, score: 0.7, evidenceIds: [], text: 'Its lamp is kept by the Carrow family. The reef lies two miles offshore.' },
  { id: 'w-c', documentId: 'd', start: 1600, end: 1660, score: 0.2, evidenceIds: [], text: 'Gulls nest on the cliffs every spring.' },
];

/**
 * Check a Generator against the contract every generator must keep: a version tag and id; an
 * Answer with text, a generator name and an `extractive` flag; citations that point at the
 * windows handed over (1-based, matching window ids, no duplicates); empty windows accepted;
 * an aborted signal rejected with MosaicAbortedError. Returns failures instead of throwing,
 * so any test runner can assert on it.
 */
export async function checkGeneratorConformance(options: GeneratorConformanceOptions): Promise<GeneratorConformanceResult> {
  const { generator } = options;
  const question = options.question ?? { id: 'conformance', text: 'When was the lighthouse at Kestrel Point built?' };
  const windows = options.windows ?? SAMPLE_WINDOWS;
  const failures: string[] = [];

  if (generator.specificationVersion !== 'v1') failures.push("specificationVersion is not 'v1'");
  if (typeof generator.id !== 'string' || generator.id.length === 0) failures.push('id is empty');

  try {
    const answer = await generator.generate({ question, windows });
    if (typeof answer.text !== 'string' || answer.text.trim() === '') failures.push('answer text is empty');
    if (typeof answer.generator !== 'string' || answer.generator === '') failures.push('answer.generator is empty');
    if (typeof answer.extractive !== 'boolean') failures.push('answer.extractive is not a boolean');
    if (!Array.isArray(answer.citations)) {
      failures.push('answer.citations is not an array');
    } else {
      const seen = new Set<number>();
      for (const citation of answer.citations) {
        if (!Number.isInteger(citation.window) || citation.window < 1 || citation.window > windows.length) {
          failures.push(`citation window ${citation.window} is outside 1..${windows.length}`);
        } else if (windows[citation.window - 1]!.id !== citation.windowId) {
          failures.push(`citation [${citation.window}] has windowId ${citation.windowId}, expected ${windows[citation.window - 1]!.id}`);
        }
        if (seen.has(citation.window)) failures.push(`citation [${citation.window}] is duplicated`);
        seen.add(citation.window);
      }
    }
  } catch (error) {
    failures.push(`generate() rejected: ${(error as Error)?.name ?? String(error)}`);
  }

  try {
    const answer = await generator.generate({ question, windows: [] });
    if (answer.citations.length > 0) failures.push('an answer without windows has citations');
  } catch (error) {
    failures.push(`generate() with no windows rejected: ${(error as Error)?.name ?? String(error)}`);
  }

  const controller = new AbortController();
  controller.abort();
  try {
    await generator.generate({ question, windows, abortSignal: controller.signal });
    failures.push('generate() with an aborted signal resolved');
  } catch (error) {
    if ((error as Error)?.name !== 'MosaicAbortedError') {
      failures.push(`generate() with an aborted signal rejected with ${(error as Error)?.name}, expected MosaicAbortedError`);
    }
  }
  return { passed: failures.length === 0, failures };
}
