import type { ChunkStore, TextSpan } from '@mosaic/spec';
import { describe, expect, it } from 'vitest';
import { SpanFacts, spanKey } from './evidence-units.js';

/** A SpanFacts whose fact is the span key plus a counter, so every computation is visible. */
function countingFacts() {
  const computed: string[] = [];
  const facts = new SpanFacts<string>((_chunks, _span, key) => {
    computed.push(key);
    return `${key}#${computed.length}`;
  });
  return { facts, computed };
}

const storeA = {} as ChunkStore;
const storeB = {} as ChunkStore;

describe('SpanFacts', () => {
  it('computes a sentence once per store, found by the same span object or by an equal span', () => {
    const { facts, computed } = countingFacts();
    const span: TextSpan = { chunkId: 'c1', start: 0, end: 10 };
    const first = facts.of(storeA, span);
    expect(facts.of(storeA, span)).toBe(first);
    // A fresh object for the same sentence (a database store hands back new objects) finds it by key.
    expect(facts.of(storeA, { chunkId: 'c1', start: 0, end: 10 })).toBe(first);
    expect(computed).toEqual([spanKey(span)]);
    // Another sentence, and the same sentence in another store, are computed.
    expect(facts.of(storeA, { chunkId: 'c1', start: 10, end: 20 })).not.toBe(first);
    expect(facts.of(storeB, span)).not.toBe(first);
    expect(computed).toHaveLength(3);
  });

  it('tells sentences apart by chunk and both offsets, large or fractional offsets too', () => {
    const { facts, computed } = countingFacts();
    const spans: TextSpan[] = [
      { chunkId: 'c', start: 1, end: 2 },
      { chunkId: 'c', start: 2, end: 1 },
      { chunkId: 'd', start: 1, end: 2 },
      { chunkId: 'c', start: 0, end: 2 ** 26 + 2 },
      { chunkId: 'c', start: 1, end: 2 ** 26 + 2 },
      { chunkId: 'c', start: 2 ** 30, end: 2 ** 30 + 5 },
      { chunkId: 'c', start: 0.5, end: 2 },
    ];
    const first = spans.map((span) => facts.of(storeA, span));
    expect(new Set(first).size).toBe(spans.length);
    // Equal spans, as fresh objects, find the same facts.
    expect(spans.map((span) => facts.of(storeA, { ...span }))).toEqual(first);
    expect(computed).toEqual(spans.map(spanKey));
  });

  it('starts afresh after 200,000 sentences, for keys and span objects alike', () => {
    const { facts, computed } = countingFacts();
    const kept: TextSpan = { chunkId: 'kept', start: 0, end: 1 };
    const first = facts.of(storeA, kept);
    for (let i = 0; i < 200_000; i += 1) facts.of(storeA, { chunkId: 'c', start: i, end: i + 1 });
    expect(computed).toHaveLength(200_001);
    // The store was full when the last sentence came, so everything before it was let go.
    const again = facts.of(storeA, kept);
    expect(again).not.toBe(first);
    expect(computed).toHaveLength(200_002);
    expect(facts.of(storeA, kept)).toBe(again);
  });
});
