import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Analysis, Policy } from '@mosaic/spec';
import { DEFAULT_POLICY, fixedPolicy } from '@mosaic/policy-schema';
import { createOfflineAnalyzer } from './offline-analyzer.js';
import { controlsKey, createLoggedAnalyzer, createPolicyLog, readPolicyLog, summarizePolicies } from './policy-log.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mosaic-policy-log-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const policy = (overrides: Partial<Policy>): Policy => ({ ...DEFAULT_POLICY, targetEntities: [], targetFacets: [], perTargetQueries: [], ...overrides });

describe('createPolicyLog', () => {
  it('appends one JSON line per analysis, creating parent folders', async () => {
    const log = createPolicyLog({ path: join(dir, 'nested', 'policies.jsonl') });
    const analyzer = createOfflineAnalyzer();
    const analysis = await analyzer.analyze({ question: { id: 'q1', text: 'What is BCC?' } });
    await log.append({ question: { id: 'q1', text: 'What is BCC?' }, analysis: { ...analysis, fallback: { from: 'openai:x', reason: 'down' } } });
    const lines = (await readFile(log.path, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0]!);
    expect(record).toMatchObject({ questionId: 'q1', question: 'What is BCC?', analyzer: 'offline', fallback: { from: 'openai:x', reason: 'down' } });
    expect(record.policy).toEqual(analysis.policy);
    expect(record.changes).toEqual([]);
    expect(typeof record.latencyMs).toBe('number');
  });

  it('never interleaves concurrent appends', async () => {
    const log = createPolicyLog({ path: join(dir, 'log.jsonl') });
    const big = policy({ rationale: 'r'.repeat(1000) });
    const n = 200;
    await Promise.all(
      Array.from({ length: n }, (_, i) =>
        log.append({ question: { id: `q${i}`, text: `question ${i}` }, analysis: { policy: big, changes: [], analyzer: 'offline', latencyMs: i } }),
      ),
    );
    await log.flush();
    const { records, malformed } = await readPolicyLog({ path: log.path });
    expect(malformed).toBe(0);
    expect(records).toHaveLength(n);
    expect(records.map((r) => r.questionId)).toEqual(Array.from({ length: n }, (_, i) => `q${i}`));
  });

  it('reports a failed write to its caller and to flush, and keeps logging afterwards', async () => {
    await writeFile(join(dir, 'file'), 'x');
    const bad = createPolicyLog({ path: join(dir, 'file', 'log.jsonl') });
    const entry = { question: { text: 'x' }, analysis: { policy: policy({}), changes: [], analyzer: 'offline', latencyMs: 0 } as Analysis };
    await expect(bad.append(entry)).rejects.toMatchObject({ code: expect.stringMatching(/ENOTDIR|EEXIST/) });
    await expect(bad.flush()).rejects.toBeDefined();
    await expect(bad.flush()).resolves.toBeUndefined();
  });

  it('skips malformed lines when reading', async () => {
    const path = join(dir, 'log.jsonl');
    await writeFile(path, `${JSON.stringify({ question: 'a', policy: policy({}) })}\nnot json\n{"policy": null}\n\n`);
    const { records, malformed } = await readPolicyLog({ path });
    expect(records).toHaveLength(1);
    expect(malformed).toBe(2);
  });

  it('createLoggedAnalyzer logs every analysis it returns', async () => {
    const log = createPolicyLog({ path: join(dir, 'log.jsonl') });
    const logged = createLoggedAnalyzer({ analyzer: createOfflineAnalyzer(), log });
    await logged.analyze({ question: { id: 'a', text: 'What is BCC?' } });
    await logged.analyze({ question: { id: 'b', text: 'Why is BCC treated with surgery?' } });
    const { records } = await readPolicyLog({ path: log.path });
    expect(records.map((r) => r.questionId)).toEqual(['a', 'b']);
    expect(records[1]!.policy.maxDepth).toBe(4);
  });

  it('rejects an empty path', () => {
    expect(() => createPolicyLog({ path: '' })).toThrow(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
  });
});

describe('summarizePolicies', () => {
  it('computes the §7.4 figures', () => {
    const records = [
      { policy: policy({ maxDepth: 2, seedLimit: 5, evidenceCount: 8 }), latencyMs: 1 },
      { policy: policy({ maxDepth: 2, seedLimit: 5, evidenceCount: 8, rationale: 'diagnostics do not count' }), latencyMs: 3 },
      { policy: policy({ maxDepth: 3, seedLimit: 12, evidenceCount: 16, useConnector: true, adaptiveFinalEvidence: true }), latencyMs: 2 },
      {
        policy: policy({ maxDepth: 4, seedLimit: 10, evidenceCount: 12, selectionMode: 'hybrid', seedQueryMode: 'per-target', anchorStrength: 0.5 }),
        fallback: { from: 'x', reason: 'y' },
      },
    ];
    const s = summarizePolicies(records);
    expect(s.count).toBe(4);
    expect(s.uniquePolicies).toBe(3);
    expect(s.depthDistribution).toEqual({ 2: 0.5, 3: 0.25, 4: 0.25 });
    expect(s.seedRange).toEqual({ min: 5, max: 12 });
    expect(s.evidenceRange).toEqual({ min: 8, max: 16 });
    expect(s.activation).toEqual({
      connector: 0.25,
      adaptiveEvidence: 0.25,
      hybridSelection: 0.25,
      perTargetSeeding: 0.25,
      compactSeeding: 0,
      anchoring: 0.25,
    });
    expect(s.stopRegimeDistribution).toEqual({ shallow: 1 });
    expect(s.meanLatencyMs).toBe(2);
    expect(s.fallbackRate).toBe(0.25);
  });

  it('handles an empty set', () => {
    const s = summarizePolicies([]);
    expect(s).toMatchObject({ count: 0, uniquePolicies: 0, seedRange: { min: 0, max: 0 }, fallbackRate: 0, meanLatencyMs: undefined });
  });

  it('controlsKey ignores diagnostics and separates fixed policies', () => {
    expect(controlsKey(policy({ rationale: 'a' }))).toBe(controlsKey(policy({ rationale: 'b' })));
    expect(new Set(['narrow', 'medium', 'wide'].map((n) => controlsKey(fixedPolicy(n as 'narrow'))))).toHaveProperty('size', 3);
  });
});
