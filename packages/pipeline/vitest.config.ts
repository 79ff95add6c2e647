import { mosaicSuites } from '../../vitest.suites';

// Integration: the real index build end to end (buildIndex → loadIndex → createMosaic).
export default mosaicSuites({
  integration: ['src/end-to-end.test.ts'],
  unit: { testTimeout: 30_000, hookTimeout: 60_000 },
  integrationTest: { testTimeout: 300_000, hookTimeout: 600_000 },
});
