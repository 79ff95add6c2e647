import { mosaicSuites } from '../../vitest.suites';

// Integration: the tests that build indexes into SurrealDB (embedded engine, on disk in a child
// process, and the requests a remote one would see).
export default mosaicSuites({
  integration: ['src/surreal-index.test.ts', 'src/surreal-index-store.test.ts', 'src/surreal-file-engine.test.ts', 'src/surreal-remote.test.ts'],
  unit: { testTimeout: 30_000, hookTimeout: 60_000 },
  integrationTest: { testTimeout: 300_000, hookTimeout: 600_000 },
});
