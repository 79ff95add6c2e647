import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@mosaic/spec';
import { coverContexts, scoreQuestion } from './index.js';

const gold = {
  id: 'q',
  question: 'What do we know about BCC?',
  question_type: 'Contextual Summarize',
  evidence: [
    'Ultraviolet radiation causes basal cell carcinoma',
    'Fair skin raises basal cell carcinoma risk',
    'Surgical excision removes basal cell carcinoma',
    'Mohs surgery spares healthy tissue',
  ],
};

// Statement i is covered by a context holding all of its content words.
const s = [
  'ultraviolet radiation causes basal cell carcinoma',
  'fair skin raises basal cell carcinoma risk',
  'surgical excision removes basal cell carcinoma',
  'mohs surgery spares healthy tissue',
];

describe('coverContexts', () => {
  it('takes, step by step, the context that adds the most uncovered statements, and its er is scoreQuestion er of those contexts', () => {
    const contexts = [
      s[0], // 1 statement
      `${s[0]} ${s[1]}`, // 2 statements
      'nothing relevant here at all',
      `${s[2]} ${s[3]}`, // 2 statements, disjoint from context 1
      `${s[1]} ${s[2]}`, // 2 statements, none new once 1 and 3 are chosen
    ];
    const cover = coverContexts({ gold, contexts, k: 2 });
    expect(cover.chosen).toEqual([1, 3]);
    expect(cover).toMatchObject({ covered: 4, statements: 4, er: 1 });
    expect(cover.coverable).toBe(4);
    expect(
      scoreQuestion(
        gold,
        cover.chosen.map((c) => contexts[c]!),
      ).er,
    ).toBe(1);
    // The plain first two hold only statements 0 and 1.
    expect(scoreQuestion(gold, contexts.slice(0, 2)).er).toBe(0.5);
  });

  it('stops when no context adds a statement, breaks ties by position and respects k', () => {
    const contexts = ['unrelated words', s[3], s[0], `${s[3]} again`];
    const cover = coverContexts({ gold, contexts, k: 15 });
    expect(cover.chosen).toEqual([1, 2]); // context 3 ties with 1 and adds nothing after it
    expect(cover.er).toBe(0.5);
    // One context is chosen, but all of them cover two statements: the er of all of them.
    expect(coverContexts({ gold, contexts, k: 1 })).toMatchObject({ chosen: [1], covered: 1, coverable: 2 });
    expect(coverContexts({ gold, contexts, k: 1 }).chosen).toEqual([1]);
    expect(scoreQuestion(gold, contexts).er).toBe(2 / 4);
    expect(coverContexts({ gold, contexts, k: 0 })).toMatchObject({ chosen: [], covered: 0, er: 0 });
  });

  it('counts a statement only when one context covers tau of it, as er does', () => {
    const halves = ['ultraviolet radiation causes', 'basal cell carcinoma'];
    expect(coverContexts({ gold, contexts: halves, k: 2 }).er).toBe(0);
    // At tau 0.5 'basal cell carcinoma' holds half of statements 0 and 2 (6 tokens each), 3 of 7 of statement 1.
    const loose = coverContexts({ gold, contexts: halves, k: 2, tau: 0.5 });
    expect(loose.er).toBe(0.5);
    expect(loose.er).toBe(scoreQuestion(gold, halves, 0.5).er);
  });

  it('gives null er without statements and rejects a bad k or tau', () => {
    expect(coverContexts({ gold: { ...gold, evidence: [] }, contexts: ['x y'], k: 3 })).toMatchObject({ chosen: [], er: null });
    expect(() => coverContexts({ gold, contexts: [], k: -1 })).toThrow(InvalidArgumentError);
    expect(() => coverContexts({ gold, contexts: [], k: 1.5 })).toThrow(/k/);
    expect(() => coverContexts({ gold, contexts: [], k: 1, tau: 0 })).toThrow(/tau/);
  });
});
