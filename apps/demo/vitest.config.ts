import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The CLI tests build real indexes and load the ONNX encoder: seconds each on 2 cores.
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
