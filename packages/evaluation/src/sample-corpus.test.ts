import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cutWindows, metricTokenSet } from '@mosaic/stage-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLE_DOCUMENTS, SAMPLE_MULTI_HOP_IDS, SAMPLE_QUESTIONS, writeSampleCorpus } from './sample-corpus.js';

// Tokens and coverage exactly as docs/METRICS.md defines them.
const contentTokens = metricTokenSet;
function coverage(statement: string, context: string): number {
  const s = contentTokens(statement);
  const c = contentTokens(context);
  let hit = 0;
  for (const token of s) if (c.has(token)) hit += 1;
  return s.size === 0 ? 0 : hit / s.size;
}
const windows = (text: string) => cutWindows(text).map((window) => window.text);
const statements = (evidence: string) => evidence.split('; ').filter((s) => contentTokens(s).size >= 2);

describe('sample corpus', () => {
  it('has GraphRAG-Bench shapes and every question type', () => {
    for (const doc of SAMPLE_DOCUMENTS) {
      expect(Object.keys(doc).sort()).toEqual(['context', 'corpus_name']);
      expect(doc.context).not.toContain('\n');
    }
    const types = new Set(SAMPLE_QUESTIONS.map((q) => q.question_type));
    expect([...types].sort()).toEqual(['Complex Reasoning', 'Contextual Summarize', 'Creative Generation', 'Fact Retrieval']);
    const names = new Set(SAMPLE_DOCUMENTS.map((d) => d.corpus_name));
    for (const q of SAMPLE_QUESTIONS) expect(names.has(q.source)).toBe(true);
    expect(new Set(SAMPLE_QUESTIONS.map((q) => q.id)).size).toBe(SAMPLE_QUESTIONS.length);
  });

  it('has a "What is X?" heading in the medical page', () => {
    const medical = SAMPLE_DOCUMENTS.find((d) => d.corpus_name === 'Medical')!;
    expect(medical.context).toMatch(/What is Morrow syndrome\? Morrow syndrome is/);
  });

  it('every evidence statement is covered (tau 0.6) by one window of its source page', () => {
    for (const q of SAMPLE_QUESTIONS) {
      const doc = SAMPLE_DOCUMENTS.find((d) => d.corpus_name === q.source)!;
      for (const statement of statements(q.evidence)) {
        const best = Math.max(...windows(doc.context).map((w) => coverage(statement, w)));
        expect(best, `${q.id}: ${statement}`).toBeGreaterThanOrEqual(0.6);
      }
    }
  });

  it('multi-hop questions need at least two windows: no window covers all their statements', () => {
    expect(SAMPLE_MULTI_HOP_IDS.length).toBeGreaterThanOrEqual(4);
    for (const id of SAMPLE_MULTI_HOP_IDS) {
      const q = SAMPLE_QUESTIONS.find((x) => x.id === id)!;
      const doc = SAMPLE_DOCUMENTS.find((d) => d.corpus_name === q.source)!;
      const parts = statements(q.evidence);
      expect(parts.length).toBeGreaterThanOrEqual(2);
      for (const w of windows(doc.context)) {
        const all = parts.every((s) => coverage(s, w) >= 0.6);
        expect.soft(all, `${id} answered by one window`).toBe(false);
      }
    }
  });

  it('the answer of a multi-hop question is not in the question (it needs the second hop)', () => {
    const q = SAMPLE_QUESTIONS.find((x) => x.id === 'Fixture-Medical-01')!;
    expect(contentTokens(q.question).has('calditrex')).toBe(false);
    expect(contentTokens(q.answer).has('calditrex')).toBe(true);
  });

  describe('writeSampleCorpus', () => {
    let dir: string;
    afterAll(async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    });
    it('writes GraphRAG-Bench files that round-trip', async () => {
      dir = await mkdtemp(join(tmpdir(), 'mosaic-sample-'));
      const files = await writeSampleCorpus(join(dir, 'nested'));
      const corpus = JSON.parse(await readFile(files.corpusPath, 'utf8'));
      expect(corpus).toEqual(SAMPLE_DOCUMENTS);
      const medical = JSON.parse(await readFile(files.medicalPath, 'utf8'));
      expect(medical.map((d: { corpus_name: string }) => d.corpus_name)).toEqual(['Medical']);
      const novelQuestions = JSON.parse(await readFile(files.novelQuestionsPath, 'utf8'));
      expect(novelQuestions.every((q: { source: string }) => q.source.startsWith('Novel-'))).toBe(true);
      const again = await writeSampleCorpus({ dir: join(dir, 'nested') });
      expect(JSON.parse(await readFile(again.questionsPath, 'utf8'))).toEqual(SAMPLE_QUESTIONS);
    });
  });
});
