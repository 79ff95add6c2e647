import type { Analysis, Analyzer, AnalyzerWarmUpOptions } from '@mosaic/spec';
import { InvalidArgumentError } from '@mosaic/spec';

/**
 * A wrapper's `warmUp`: the wrapped analyzer's, called as is (nothing the wrapper adds, such as a cache
 * entry or a log line, happens), or none when the wrapped analyzer has none.
 */
export function forwardedWarmUp(analyzer: Analyzer): Pick<Analyzer, 'warmUp'> {
  const warmUp = analyzer.warmUp;
  return typeof warmUp === 'function' ? { warmUp: (options: AnalyzerWarmUpOptions): Promise<Analysis[]> => warmUp.call(analyzer, options) } : {};
}

/** Throws InvalidArgumentError unless `options.questions` is a non-empty array. */
export function checkWarmUpQuestions(options: AnalyzerWarmUpOptions): void {
  if (!Array.isArray(options?.questions) || options.questions.length === 0) {
    throw new InvalidArgumentError({ argument: 'questions', message: 'must be a non-empty array of questions' });
  }
}
