import { describe, expect, it } from 'vitest';
import type { GoldQuestion } from '@mosaic/evaluation';
import type { EvidenceUnit } from '@mosaic/spec';
import { buildHandIndex } from '@mosaic/testing/hand-built-index';
import { reachedWindows, summarizeReach } from './graph-reach.js';

const PARAGRAPHS = [
  'Prolonged exposure to veltrane dust causes Morrow syndrome in quarry workers.',
  'Morrow syndrome is treated with calditrex, an anti-inflammatory drug taken daily.',
  'Patients taking calditrex need a liver function test every month.',
  'Harlow fever spreads through water drawn from shallow wells.',
];

const FILLER = Array.from({ length: 40 }, (_, i) => `pebble${i}`).join(' ');

async function index() {
  // Filler paragraphs longer than a window keep every window to at most one of PARAGRAPHS, and each
  // paragraph (< 150 characters) lies whole in some window (size 200, stride 50).
  const text = PARAGRAPHS.flatMap((p) => [p, FILLER]).join('\n\n');
  return buildHandIndex({ entities: [{ id: 'x', name: 'veltrane dust' }], documents: [{ id: 'd', text }], window: { size: 200, stride: 50 } });
}

function unit(id: string, chunkIds: string[]): EvidenceUnit {
  return { id, kind: 'entity', refId: 'x', text: id, chunkIds, pathIds: [], score: 1 };
}

describe('graph reach', () => {
  it('maps evidence to every window of its chunks, each window once', async () => {
    const idx = await index();
    const [first, second] = idx.chunkList;
    const line = reachedWindows('q', idx, [unit('a', [first.id]), unit('b', [first.id, second.id])]);
    const expected = idx.windowList.filter((w) => w.chunkIds.includes(first.id) || w.chunkIds.includes(second.id)).map((w) => w.text);
    expect(expected.length).toBeGreaterThan(1);
    expect(line.id).toBe('q');
    expect([...line.contexts].sort()).toEqual([...expected].sort());
    expect(reachedWindows('q', idx, []).contexts).toEqual([]);
  });

  it('scores er over all reached windows; a question without a line reaches nothing', async () => {
    const idx = await index();
    const gold: GoldQuestion[] = [
      { id: 'q1', question: 'What treats Morrow syndrome?', question_type: 'Fact Retrieval', evidence: PARAGRAPHS[1] },
      { id: 'q2', question: 'How does Harlow fever spread?', question_type: 'Complex Reasoning', evidence: PARAGRAPHS[3] },
      { id: 'q3', question: 'What causes Morrow syndrome?', question_type: 'Complex Reasoning', evidence: PARAGRAPHS[0] },
    ];
    const treated = idx.chunkList.find((c) => c.text.includes('calditrex, an anti'))!;
    const causes = idx.chunkList.find((c) => c.text.includes('veltrane'))!;
    const q1 = reachedWindows('q1', idx, [unit('u1', [treated.id])]);
    // q3 reaches only the calditrex paragraph: not its evidence.
    const q3 = reachedWindows('q3', idx, [unit('u3', [treated.id])]);
    const reach = summarizeReach(gold, [q1, q3]);
    expect(reach.windowsPerQuestion).toBeCloseTo((q1.contexts.length + q3.contexts.length) / 3, 10);
    expect(reach.er).toBeCloseTo(1 / 3, 10);
    expect(reach.byType['Fact Retrieval']).toEqual({ windowsPerQuestion: q1.contexts.length, er: 1 });
    expect(reach.byType['Complex Reasoning'].er).toBe(0);
    expect(reach.byType['Complex Reasoning'].windowsPerQuestion).toBeCloseTo(q3.contexts.length / 2, 10);
    // No cut: with 20 filler windows before the evidence window, it still counts.
    const padded = {
      id: 'q3',
      contexts: [...Array.from({ length: 20 }, (_, i) => `filler ${i}`), ...reachedWindows('q3', idx, [unit('u', [causes.id])]).contexts],
    };
    expect(summarizeReach([gold[2]], [padded]).er).toBe(1);
    expect(summarizeReach([gold[2]], [padded]).best).toBeUndefined();
    // The best k: the evidence window comes last, and one window is enough to hold it.
    expect(summarizeReach([gold[2]], [padded], { bestOf: 1 }).best).toEqual({ k: 1, er: 1 });
    expect(summarizeReach([gold[2]], [padded], { bestOf: 0 }).best).toEqual({ k: 0, er: 0 });
    // Over several questions it is the mean; a question without a line holds nothing.
    expect(summarizeReach(gold, [q1, padded], { bestOf: 15 }).best).toEqual({ k: 15, er: 2 / 3 });
  });
});
