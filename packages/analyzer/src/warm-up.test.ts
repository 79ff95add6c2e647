import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Analysis, Analyzer, AnalyzerGraphView, AnalyzerWarmUpOptions } from '@mosaic/spec';
import { startOpenAIStub, type OpenAIStub } from '@mosaic/testing';
import { createCachedAnalyzer } from './cached-analyzer.js';
import { createOfflineAnalyzer } from './offline-analyzer.js';
import { createOpenAIAnalyzer } from './openai-analyzer.js';
import { createLoggedAnalyzer, createPolicyLog } from './policy-log.js';
import { withFallback } from './with-fallback.js';

const questions = [
  { id: 'w1', text: 'What is basal cell carcinoma?' },
  { id: 'w2', text: 'How is fair skin related to BCC, and which treatment helps?' },
  { id: 'w3', text: 'Compare aspirin and insulin' },
];

/** A graph view that knows two names and counts its lookups. */
function countingGraph(): AnalyzerGraphView & { lookups: number } {
  const names: Record<string, string> = { bcc: 'n:bcc', 'fair skin': 'n:skin' };
  const graph = {
    lookups: 0,
    async lookup(mentions: readonly string[]) {
      graph.lookups += 1;
      return new Map(mentions.flatMap((mention) => (names[mention.toLowerCase()] ? [[mention, names[mention.toLowerCase()]!] as const] : [])));
    },
    async connected() {
      return true;
    },
  };
  return graph;
}

const policies = (analyses: Analysis[]) => analyses.map((analysis) => analysis.policy);

/** An analyzer whose `warmUp` records what it was asked. */
function recordingAnalyzer(id: string): Analyzer & { warmUps: AnalyzerWarmUpOptions[] } {
  const inner = createOfflineAnalyzer({ id });
  const analyzer = {
    specificationVersion: 'v1' as const,
    id,
    warmUps: [] as AnalyzerWarmUpOptions[],
    analyze: inner.analyze,
    async warmUp(options: AnalyzerWarmUpOptions) {
      analyzer.warmUps.push(options);
      return inner.warmUp!(options);
    },
  };
  return analyzer;
}

let stub: OpenAIStub | undefined;
let dir: string | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('Analyzer.warmUp', () => {
  it('offline: analyzes each question as analyze does, in order, over the graph view given', async () => {
    const analyzer = createOfflineAnalyzer();
    const graph = countingGraph();
    const warmed = await analyzer.warmUp!({ questions, graph });
    expect(warmed).toHaveLength(questions.length);
    expect(graph.lookups).toBeGreaterThanOrEqual(questions.length);
    const expected: Analysis[] = [];
    for (const question of questions) expected.push(await analyzer.analyze({ question, graph: countingGraph() }));
    expect(policies(warmed)).toEqual(policies(expected));
    // Different questions, different policies: each question was analyzed, not the first one thrice.
    expect(new Set(warmed.map((analysis) => JSON.stringify(analysis.policy))).size).toBeGreaterThan(1);
    expect(warmed.every((analysis) => analysis.analyzer === 'offline')).toBe(true);
  });

  it('offline: refuses no questions, and honours an abort', async () => {
    const analyzer = createOfflineAnalyzer();
    await expect(analyzer.warmUp!({ questions: [] })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError', argument: 'questions' });
    await expect(analyzer.warmUp!({} as AnalyzerWarmUpOptions)).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError', argument: 'questions' });
    const controller = new AbortController();
    controller.abort();
    await expect(analyzer.warmUp!({ questions, abortSignal: controller.signal })).rejects.toMatchObject({ name: 'MosaicAbortedError' });
  });

  it("cached: the analyzer's warm-up, nothing cached and no hit or miss counted; none when the analyzer has none", async () => {
    const inner = recordingAnalyzer('offline');
    const cached = createCachedAnalyzer({ analyzer: inner });
    const graph = countingGraph();
    const warmed = await cached.warmUp!({ questions, graph });
    expect(inner.warmUps).toHaveLength(1);
    expect(inner.warmUps[0]!.graph).toBe(graph);
    expect(policies(warmed)).toEqual(policies(await createOfflineAnalyzer().warmUp!({ questions, graph })));
    expect(cached.stats()).toEqual({ hits: 0, misses: 0, size: 0, hitRate: 0 });
    // The first real question is a miss: the warm-up left nothing behind.
    const first = await cached.analyze({ question: questions[0]!, graph });
    expect(first.cacheHit).toBe(false);
    const bare = createCachedAnalyzer({ analyzer: { specificationVersion: 'v1', id: 'bare', analyze: inner.analyze } });
    expect(bare.warmUp).toBeUndefined();
  });

  it("logged: the analyzer's warm-up writes no line; analyses after it are logged as before", async () => {
    dir = await mkdtemp(join(tmpdir(), 'mosaic-warm-up-'));
    const log = createPolicyLog({ path: join(dir, 'policies.jsonl') });
    const logged = createLoggedAnalyzer({ analyzer: createOfflineAnalyzer(), log });
    const warmed = await logged.warmUp!({ questions });
    expect(warmed).toHaveLength(questions.length);
    await expect(stat(log.path)).rejects.toMatchObject({ code: 'ENOENT' });
    await logged.analyze({ question: questions[0]! });
    expect((await readFile(log.path, 'utf8')).trim().split('\n')).toHaveLength(1);
  });

  it("withFallback: the primary's warm-up, none when the primary has none (the fallback's policies are not the primary's)", async () => {
    const primary = recordingAnalyzer('first');
    const fallback = recordingAnalyzer('second');
    const both = withFallback({ primary, fallback });
    expect((await both.warmUp!({ questions })).map((analysis) => analysis.analyzer)).toEqual(['first', 'first', 'first']);
    expect([primary.warmUps.length, fallback.warmUps.length]).toEqual([1, 0]);
    const remote = { specificationVersion: 'v1' as const, id: 'remote', analyze: primary.analyze };
    expect(withFallback({ primary: remote, fallback }).warmUp).toBeUndefined();
  });

  it("OpenAI-compatible: no warmUp, with or without a fallback, wrapped or not (the pipeline's warm-up leaves it alone)", async () => {
    stub = await startOpenAIStub({ respond: () => ({ json: {} }) });
    expect(createOpenAIAnalyzer({ apiKey: 'k', retryDelayMs: 1, baseURL: stub.url }).warmUp).toBeUndefined();
    expect(createOpenAIAnalyzer({ apiKey: 'k', baseURL: stub.url, fallback: false }).warmUp).toBeUndefined();
    // Wrapped as the CLI wraps it (cached, logged): still none.
    dir = await mkdtemp(join(tmpdir(), 'mosaic-warm-up-'));
    const log = createPolicyLog({ path: join(dir, 'policies.jsonl') });
    const wrapped = createLoggedAnalyzer({ analyzer: createCachedAnalyzer({ analyzer: createOpenAIAnalyzer({ apiKey: 'k', baseURL: stub.url }) }), log });
    expect(wrapped.warmUp).toBeUndefined();
    expect(stub.requests).toHaveLength(0);
  });
});
