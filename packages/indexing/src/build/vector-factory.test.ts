import { describe, expect, it } from 'vitest';
import {
  AUTO_FLAT_FACTORY,
  AUTO_HNSW_FACTORY,
  AUTO_HNSW_FROM,
  AUTO_HNSW_WINDOWS_FROM,
  chooseVectorFactory,
  HNSW_EF_SEARCH,
  vectorSearchParameters,
} from './vector-factory.js';

describe('chooseVectorFactory', () => {
  it("'auto' searches exactly below its threshold of each kind and builds HNSW from there on", () => {
    for (const kind of ['entities', 'relations', undefined] as const) {
      expect(chooseVectorFactory('auto', 0, kind)).toBe(AUTO_FLAT_FACTORY);
      expect(chooseVectorFactory('auto', AUTO_HNSW_FROM - 1, kind)).toBe(AUTO_FLAT_FACTORY);
      expect(chooseVectorFactory('auto', AUTO_HNSW_FROM, kind)).toBe(AUTO_HNSW_FACTORY);
    }
    expect(chooseVectorFactory('auto', AUTO_HNSW_WINDOWS_FROM - 1, 'windows')).toBe(AUTO_FLAT_FACTORY);
    expect(chooseVectorFactory('auto', AUTO_HNSW_WINDOWS_FROM, 'windows')).toBe(AUTO_HNSW_FACTORY);
  });

  it('keeps GraphRAG-Bench and a 10 MB corpus exact, and makes the window search of 100 MB of documentation approximate', () => {
    // Medical's relations and windows, the largest of the benchmark's indexes.
    expect(chooseVectorFactory('auto', 20_826, 'relations')).toBe('SQfp16');
    expect(chooseVectorFactory('auto', 1_315, 'windows')).toBe('SQfp16');
    // 10 MB of documentation (docs/results/issue-31.md, session 10): HNSW links there would pass 15× the corpus.
    expect(chooseVectorFactory('auto', 200_098, 'relations')).toBe('SQfp16');
    expect(chooseVectorFactory('auto', 11_575, 'windows')).toBe('SQfp16');
    // The windows of the 100 MB corpus.
    expect(chooseVectorFactory('auto', 112_247, 'windows')).toBe('HNSW16_SQfp16');
  });

  it('uses any other factory as given, and stores efSearch for HNSW factories only', () => {
    expect(chooseVectorFactory('Flat', 1_000_000, 'windows')).toBe('Flat');
    expect(chooseVectorFactory('HNSW32', 10, 'relations')).toBe('HNSW32');
    expect(vectorSearchParameters(AUTO_HNSW_FACTORY)).toEqual({ efSearch: HNSW_EF_SEARCH });
    expect(vectorSearchParameters('HNSW32,Flat')).toEqual({ efSearch: HNSW_EF_SEARCH });
    expect(vectorSearchParameters(AUTO_FLAT_FACTORY)).toBeUndefined();
    expect(vectorSearchParameters('IVF64,Flat')).toBeUndefined();
  });
});
