import type { Analyzer } from '@mosaic/spec';
import { describe, expect, it } from 'vitest';
import { createCachedAnalyzer } from './cached-analyzer.js';
import { checkAnalyzerConformance } from './conformance.js';
import { createOfflineAnalyzer } from './offline-analyzer.js';

describe('checkAnalyzerConformance', () => {
  it('passes the offline analyzer and the cached offline analyzer', async () => {
    const offline = await checkAnalyzerConformance({ analyzer: createOfflineAnalyzer() });
    expect(offline.failures).toEqual([]);
    expect(offline.checks).toHaveLength(7);
    const cached = await checkAnalyzerConformance({ analyzer: createCachedAnalyzer({ analyzer: createOfflineAnalyzer() }) });
    expect(cached.failures).toEqual([]);
  });

  it('fails an analyzer whose policy is out of range, that ignores aborts and is not deterministic', async () => {
    const offline = createOfflineAnalyzer();
    let calls = 0;
    const broken: Analyzer = {
      specificationVersion: 'v1',
      id: 'broken',
      async analyze(options) {
        const analysis = await offline.analyze({ ...options, abortSignal: undefined });
        calls += 1;
        return { ...analysis, policy: { ...analysis.policy, seedLimit: 40 + calls } };
      },
    };
    const report = await checkAnalyzerConformance({ analyzer: broken });
    const failed = report.checks.filter((check) => !check.passed).map((check) => check.name);
    expect(failed).toEqual(
      expect.arrayContaining([
        'returns a valid policy for any question',
        'rejects with MosaicAbortedError when the signal is already aborted',
        'is deterministic: the same policy for the same question',
      ]),
    );
    // No warmUp: nothing to check there.
    expect(failed).not.toContain('warms up as it analyzes: one analysis per question, the policies analyze gives (when it has a warmUp)');
  });

  it('fails an analyzer whose warmUp gives other policies than analyze, or too few analyses', async () => {
    const offline = createOfflineAnalyzer();
    const name = 'warms up as it analyzes: one analysis per question, the policies analyze gives (when it has a warmUp)';
    const other: Analyzer = {
      ...offline,
      warmUp: async (options) => (await offline.warmUp!(options)).map((analysis) => ({ ...analysis, policy: { ...analysis.policy, maxDepth: 1 } })),
    };
    const short: Analyzer = { ...offline, warmUp: async (options) => (await offline.warmUp!(options)).slice(1) };
    for (const analyzer of [other, short]) {
      const report = await checkAnalyzerConformance({ analyzer });
      expect(report.checks.filter((check) => !check.passed).map((check) => check.name)).toEqual([name]);
    }
  });
});
