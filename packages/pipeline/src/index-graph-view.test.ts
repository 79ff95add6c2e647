import { describe, expect, it } from 'vitest';
import { createIndexGraphView, normalizeMention } from './index-graph-view.js';
import { buildMedicalIndex } from './__fixtures__/medical-index.js';

describe('createIndexGraphView', () => {
  it('resolves mentions by normalised name and omits unknown ones', async () => {
    const index = await buildMedicalIndex();
    const view = createIndexGraphView({ index });
    const found = await view.lookup(['  morrow   SYNDROME ', 'Calditrex?', 'aspirin']);
    expect(found).toEqual(
      new Map([
        ['  morrow   SYNDROME ', 'morrow'],
        ['Calditrex?', 'calditrex'],
      ]),
    );
    expect(normalizeMention('"MX-7".')).toBe('mx-7');
  });

  it('answers connectivity within a number of hops', async () => {
    const index = await buildMedicalIndex();
    const view = createIndexGraphView({ index });
    expect(await view.connected!('veltrane', 'calditrex', 1)).toBe(false);
    expect(await view.connected!('veltrane', 'calditrex', 2)).toBe(true);
    expect(await view.connected!('quarry', 'liver', 3)).toBe(false);
    expect(await view.connected!('quarry', 'liver', 4)).toBe(true);
    expect(await view.connected!('harlow', 'dunmere', 5)).toBe(false);
  });
});
