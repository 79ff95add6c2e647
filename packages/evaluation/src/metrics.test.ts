import { describe, expect, it } from 'vitest';
import { evaluateRetrieval, scoreQuestion } from './index.js';
import { evidenceStatements, metricStem, metricTokenSet } from './internal.js';

describe('tokens (METRICS.md)', () => {
  it('lowercases, drops 1-char tokens and stop words, stems with the first matching suffix', () => {
    expect([...metricTokenSet('The Patients were TREATED with 2 drugs; X-ray imaging')].sort()).toEqual(['drug', 'imag', 'patient', 'ray', 'treat'].sort());
  });

  it('strips a suffix only when the word is longer than suffix + 3', () => {
    expect(metricStem('relations')).toBe('relation'); // 'ations' needs > 9 chars, so 's' applies
    expect(metricStem('nation')).toBe('nation'); // 'ation' needs length > 8
    expect(metricStem('radiation')).toBe('radi'); // 'ation' (5) + 3 < 9
    expect(metricStem('dies')).toBe('dies'); // 'ies' needs > 6, 'es' > 5, 's' > 4
    expect(metricStem('studies')).toBe('stud');
    expect(metricStem('quickly')).toBe('quick');
  });

  it('splits evidence on "; " and newlines and ignores statements with < 2 content tokens', () => {
    expect(evidenceStatements('Aspirin thins blood.; It is.\nFever causes chills')).toEqual(['Aspirin thins blood.', 'Fever causes chills']);
    expect(evidenceStatements(['a; Insulin lowers glucose'])).toEqual(['Insulin lowers glucose']);
    expect(evidenceStatements(undefined)).toEqual([]);
  });
});

describe('scoreQuestion', () => {
  const gold = {
    id: 'q1',
    question: 'What causes BCC?',
    answer: 'Ultraviolet radiation from sunlight',
    question_type: 'Fact Retrieval',
    evidence: 'Ultraviolet radiation causes basal cell carcinoma; Sunlight contains ultraviolet radiation',
  };

  it('counts a statement only when one single context covers ≥ tau of its tokens', () => {
    // statement 1 tokens: ultraviolet radiat caus basal cell carcinoma (6)
    const split = ['ultraviolet radiation basal', 'cell carcinoma causes'];
    const s = scoreQuestion(gold, split);
    expect(s.er).toBe(0); // each context covers 3/6 = 0.5 < 0.6 of statement 1, and < 0.6 of statement 2
    const joined = scoreQuestion(gold, ['ultraviolet radiation causes basal cell carcinoma', 'sunlight contains']);
    expect(joined.er).toBe(0.5);
    // statement 2 = {sunlight, contain, ultraviolet, radi}: best single context covers 2 of 4
    expect(joined.er_soft).toBeCloseTo((1 + 0.5) / 2);
  });

  it('computes answer recall over the union of contexts, only for answer types', () => {
    const s = scoreQuestion(gold, ['ultraviolet light', 'radiation from sunlight']);
    expect(s.ans).toBe(1);
    expect(scoreQuestion({ ...gold, question_type: 'Contextual Summarize' }, ['x']).ans).toBeNull();
    expect(s.chars).toBe('ultraviolet light'.length + 'radiation from sunlight'.length);
  });
});

describe('evaluateRetrieval', () => {
  it('summarises overall and per type, respecting topK and missing results', () => {
    const gold = [
      { id: 'a', question: '', question_type: 'Fact Retrieval', answer: 'red apple', evidence: 'red apple grows' },
      { id: 'b', question: '', question_type: 'Complex Reasoning', answer: 'green pear', evidence: 'green pear grows' },
    ];
    const results = [{ id: 'a', contexts: ['nothing here', 'red apple grows'] }];
    const all = evaluateRetrieval({ gold, results });
    expect(all.overall.n).toBe(2);
    expect(all.overall.er).toBe(0.5);
    expect(all.byType['Fact Retrieval'].er).toBe(1);
    expect(all.byType['Complex Reasoning'].er).toBe(0);
    const top1 = evaluateRetrieval({ gold, results, topK: 1 });
    expect(top1.overall.er).toBe(0);
  });
});
