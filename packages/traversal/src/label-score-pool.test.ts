import { makePolicy } from '@mosaic/testing';
import { describe, expect, it } from 'vitest';
import { hubIndex } from './hub-index.test-support.js';
import { buildQuestionSignals, LabelScorePool } from './question-signals.js';

describe('LabelScorePool', () => {
  it("lends arrays uncleared: a question's label scores read the same from pooled arrays as from new ones, whatever an earlier question set", async () => {
    const index = await hubIndex();
    const pool = new LabelScorePool();
    const questions = ['What cures fever in children?', 'anchors', 'trades with the northern towns', 'anchors ships', 'What cures fever in children?'];
    for (const question of questions) {
      const [queryVector] = await index.encoder.encode([question]);
      const context = { question: { text: question }, queryVector, policy: makePolicy() };
      const loan = pool.loan();
      const pooled = await buildQuestionSignals({ index, context, lexicalWeight: 0.8, labelScores: loan });
      const fresh = await buildQuestionSignals({ index, context, lexicalWeight: 0.8 });
      const ids = index.relationIds;
      const read = (signals: typeof fresh) => ids.map((id) => [signals.relationScores.get(id), signals.relationScores.upperBound!(id)]);
      expect(read(pooled)).toEqual(read(fresh));
      // Not every relation shares a word with the question: unseen ones must read as unseen.
      expect(new Set(ids.map((id) => fresh.relationScores.upperBound!(id))).size).toBeGreaterThan(1);
      loan.returnAll();
      expect(pool.size).toBeGreaterThan(0);
    }
  });

  it("reads the index's held lexical scores in place for a question with a loan, and releases each one with the loan", async () => {
    const index = await hubIndex();
    const question = 'What cures fever in children?';
    const [queryVector] = await index.encoder.encode([question]);
    const context = { question: { text: question }, queryVector, policy: makePolicy() };
    const fresh = await buildQuestionSignals({ index, context, lexicalWeight: 0.8 });
    // The relations' lexical index, its holds counted.
    const relations = index.lexical!.relations!;
    let open = 0;
    let holds = 0;
    const counting = Object.create(relations) as typeof relations;
    counting.holdScores = (query: string) => {
      const held = relations.holdScores!(query)!;
      holds += 1;
      open += 1;
      return {
        count: held.count,
        labels: held.labels,
        scoreOf: (label: number) => held.scoreOf(label),
        release: () => {
          open -= 1;
          held.release();
        },
      };
    };
    const counted = { ...index, lexical: { ...index.lexical, relations: counting } } as typeof index;
    const loan = new LabelScorePool().loan();
    const held = await buildQuestionSignals({ index: counted, context, lexicalWeight: 0.8, labelScores: loan });
    expect(holds).toBe(1);
    const ids = index.relationIds;
    const read = (signals: typeof fresh) => ids.map((id) => [signals.relationScores.get(id), signals.relationScores.upperBound!(id)]);
    expect(read(held)).toEqual(read(fresh));
    expect(open).toBe(1);
    loan.returnAll();
    expect(open).toBe(0);
  });

  it('gives each loan a new mark, and clears the stamps once the marks run out', () => {
    const pool = new LabelScorePool();
    const stamp = new Uint32Array([0xffffffff, 7, 0]);
    pool.putBack({ dense: new Float64Array(3), stamp, mark: 7 });
    const next = pool.take(3)!;
    expect(next.mark).toBe(8);
    expect([...next.stamp]).toEqual([0xffffffff, 7, 0]);
    pool.putBack({ ...next, mark: 0xffffffff });
    const wrapped = pool.take(3)!;
    expect(wrapped.mark).toBe(1);
    expect([...wrapped.stamp]).toEqual([0, 0, 0]);
    expect(pool.take(3)).toBeUndefined();
    expect(pool.take(4)).toBeUndefined();
  });
});
