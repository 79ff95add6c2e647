import * as stageUtils from '@mosaic/stage-utils';
import { describe, expect, it } from 'vitest';
import * as textMatch from './index.js';

describe('@mosaic/text-match', () => {
  it('re-exports the matching rules of @mosaic/stage-utils under their old names', () => {
    expect(textMatch.contentTokens).toBe(stageUtils.matchTokens);
    expect(textMatch.stem).toBe(stageUtils.matchStem);
    expect(textMatch.passageRelevance).toBe(stageUtils.passageRelevance);
    expect(textMatch.contentTokens('Treatments of CML')).toEqual(['treatment', 'cml']);
  });
});
