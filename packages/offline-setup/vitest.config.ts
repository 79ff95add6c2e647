import { mosaicSuites } from '../../vitest.suites';

// Integration: the set-up builds faiss-node's native addon (minutes when it is not built yet).
export default mosaicSuites({
  integration: ['src/offline-setup.test.ts'],
  integrationTest: { testTimeout: 900_000, hookTimeout: 900_000 },
});
