import { describe, expect, it } from 'vitest';
import { checkGate, type GateResult, percentile, readQuestionSet, datasetsDir } from './quality-gate.js';

const result = (medical: number, overall: number): GateResult => ({
  corpora: [{ name: 'Medical', questions: 40, er: medical, latencyMs: { p50: 20, p95: 40 }, indexMs: 1000 }],
  overall: { questions: 40, er: overall, latencyMs: { p50: 20, p95: 40 } },
});
const baseline = { er: { Medical: 0.5, overall: 0.5 }, tolerancePoints: 1.5, note: 'test' };

describe('checkGate', () => {
  it('passes within the tolerance and prints latency beside er', () => {
    const verdict = checkGate(result(0.49, 0.4851), baseline);
    expect(verdict.pass).toBe(true);
    expect(verdict.lines[0]).toMatch(/^ok {3}Medical: er 49\.00 vs baseline 50\.00 \(-1\.00 points.*latency p50 20\.0 ms, p95 40\.0 ms \(not gated\)/);
  });

  it('fails a figure more than the tolerance below its baseline', () => {
    const verdict = checkGate(result(0.5, 0.4849), baseline);
    expect(verdict.pass).toBe(false);
    expect(verdict.lines.map((line) => line.slice(0, 4))).toEqual(['ok  ', 'FAIL']);
  });

  it('fails a corpus without a baseline, and notes a rise above the tolerance without failing', () => {
    expect(checkGate(result(0.5, 0.5), { ...baseline, er: { overall: 0.5 } }).pass).toBe(false);
    const up = checkGate(result(0.6, 0.5), baseline);
    expect(up.pass).toBe(true);
    expect(up.lines[0]).toMatch(/raise baseline\.json/);
  });
});

describe('the question set', () => {
  it('holds 80 distinct dev-split ids, 40 per corpus, and names the corpora to index', () => {
    const set = readQuestionSet();
    const ids = Object.values(set.corpora).flatMap((corpus) => corpus.ids);
    expect(new Set(ids).size).toBe(80);
    expect(Object.values(set.corpora).map((corpus) => [corpus.ids.length, corpus.questionFile.endsWith('.dev.json')])).toEqual([
      [40, true],
      [40, true],
    ]);
  });

  it('finds the dataset by MOSAIC_DATASETS_DIR first, else in ../shared beside the repository', () => {
    expect(datasetsDir({ MOSAIC_DATASETS_DIR: '/tmp/elsewhere' })).toBe('/tmp/elsewhere');
    expect(datasetsDir({})).toMatch(/\/shared\/datasets\/graphrag-bench$/);
  });
});

describe('percentile', () => {
  it('interpolates between ranks', () => {
    expect(percentile([10, 20, 30, 40], 0.5)).toBe(25);
    expect(percentile([5], 0.95)).toBe(5);
  });
});
