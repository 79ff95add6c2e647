import { describe, expect, it } from 'vitest';
import { entityText, relationText } from './index-texts.js';

describe('embedded entity and relation texts', () => {
  it('adds the description after a colon when there is one', () => {
    expect(entityText({ name: 'Imatinib', description: 'a kinase inhibitor' })).toBe('Imatinib: a kinase inhibitor');
    expect(entityText({ name: 'Imatinib', description: '' })).toBe('Imatinib');
    expect(relationText({ label: 'treats', description: 'first-line therapy' }, 'Imatinib', 'CML')).toBe('Imatinib treats CML: first-line therapy');
    expect(relationText({ label: 'treats', description: '' }, 'Imatinib', 'CML')).toBe('Imatinib treats CML');
  });
});
