import { mosaicSuites } from '../../vitest.suites';

// Integration: extraction in worker threads (each worker loads the wink model; three whole builds
// compared byte for byte), about 10 s on a quiet 2-core machine with the package built (its workers
// then run the built modules; see workerModule). Everything else is a unit test.
export default mosaicSuites({
  integration: ['src/build/extract-in-workers.test.ts'],
  unit: { testTimeout: 30_000, hookTimeout: 60_000 },
  integrationTest: { testTimeout: 300_000, hookTimeout: 600_000 },
});
