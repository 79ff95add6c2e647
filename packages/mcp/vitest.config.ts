import { mosaicSuites } from '../../vitest.suites';

// Unit tests build a small index through the real index composition (embedded encoder, faiss) in
// their hooks; integration tests spawn processes. Timeouts catch hangs only, with room for a busy machine.
export default mosaicSuites({
  integration: ['src/mcp-server.test.ts'],
  unit: { testTimeout: 60_000, hookTimeout: 180_000 },
  integrationTest: { testTimeout: 600_000, hookTimeout: 600_000 },
});
