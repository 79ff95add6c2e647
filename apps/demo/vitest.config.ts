import { mosaicSuites } from '../../vitest.suites';

// Integration: the CLI end to end (real indexes, the ONNX encoder, SurrealDB on disk, child
// processes), the explorer's server and its browser test. Their timeouts only catch hangs: a minute
// or more each on a busy 2-core machine, so ten minutes per test.
export default mosaicSuites({
  integration: [
    'src/main.test.ts',
    'src/commands/serve-mcp-commands.test.ts',
    'src/explorer/explorer-browser.test.ts',
    'src/explorer/explorer-server.test.ts',
    'src/commands/explore-command.test.ts',
  ],
  unit: { testTimeout: 30_000, hookTimeout: 60_000 },
  integrationTest: { testTimeout: 600_000, hookTimeout: 900_000 },
});
