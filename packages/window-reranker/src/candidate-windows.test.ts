import type { EvidenceUnit } from '@mosaic/spec';
import { buildHandIndex } from '@mosaic/testing/hand-built-index';
import { describe, expect, it } from 'vitest';
import { windowsOfSpan } from '@mosaic/stage-utils';
import { collectCandidateWindows } from './candidate-windows.js';

// One 1,000-character chunk cut into windows of 400, stride 200: [0,400) [200,600) [400,800) [600,1000).
const filler = (n: number) => 'x'.repeat(n);
const early = 'Aspirin thins the blood.'; // at 250: inside [0,400) and [200,600)
const late = 'Ibuprofen eases swelling.'; // at 790: crosses 800, only [600,1000) holds it whole
const text = `${filler(250)}${early}${filler(790 - 250 - early.length)}${late}${filler(1000 - 790 - late.length)}`;

async function fixture() {
  return buildHandIndex({
    documents: [{ id: 'd', text }],
    chunks: [{ id: 'd#0', documentId: 'd', start: 0, end: text.length, text }],
    entities: [
      { id: 'a', name: 'Aspirin', chunkIds: ['d#0'] },
      { id: 'b', name: 'Blood', chunkIds: ['d#0'] },
    ],
    relations: [{ id: 'ab', source: 'a', target: 'b', label: 'thins', chunkIds: ['d#0'] }],
    window: { size: 400, stride: 200 },
  });
}

const unit = (id: string, spans?: EvidenceUnit['spans']): EvidenceUnit => ({
  id,
  kind: 'relation',
  refId: id,
  text: id,
  chunkIds: ['d#0'],
  ...(spans ? { spans } : {}),
  pathIds: [],
  score: 1,
});

describe('collectCandidateWindows: sentence grounding', () => {
  it('a unit with spans reaches only the windows that hold its sentence whole', async () => {
    const index = await fixture();
    expect(index.chunks.windowsOfChunk('d#0')).toHaveLength(4);
    const span = { chunkId: 'd#0', start: 250, end: 250 + early.length };
    expect(text.slice(span.start, span.end)).toBe(early);
    const { candidates } = collectCandidateWindows({ index, evidence: [unit('relation:ab', [span])] });
    expect(candidates.map((c) => [c.window.start, c.window.end])).toEqual([
      [0, 400],
      [200, 600],
    ]);
    for (const candidate of candidates) expect(candidate.window.text).toContain(early);
  });

  it('a sentence no window holds whole reaches the window holding most of it; without spans, every window of the chunk', async () => {
    const index = await fixture();
    const crossing = { chunkId: 'd#0', start: 790, end: 790 + late.length };
    expect(windowsOfSpan(index, crossing, index.chunks.windowsOfChunk('d#0')).map((w) => [w.start, w.end])).toEqual([[600, 1000]]);
    // 500 characters: longer than a window, so none holds it; [200,600) holds 400 of them.
    const long = { chunkId: 'd#0', start: 150, end: 650 };
    expect(windowsOfSpan(index, long, index.chunks.windowsOfChunk('d#0')).map((w) => [w.start, w.end])).toEqual([[200, 600]]);
    const { candidates } = collectCandidateWindows({ index, evidence: [unit('relation:x')] });
    expect(candidates).toHaveLength(4);
  });

  it('lists each window once with every unit that reached it, in evidence order', async () => {
    const index = await fixture();
    const span = { chunkId: 'd#0', start: 250, end: 250 + early.length };
    const { candidates } = collectCandidateWindows({ index, evidence: [unit('u1', [span]), unit('u2', [span])] });
    expect(candidates.map((c) => c.evidenceIds)).toEqual([
      ['u1', 'u2'],
      ['u1', 'u2'],
    ]);
    expect(collectCandidateWindows({ index, evidence: [unit('u3', [{ chunkId: 'missing', start: 0, end: 5 }])] }).candidates).toEqual([]);
  });
});
