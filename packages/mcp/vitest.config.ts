import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Each file builds a small index and loads the ONNX encoder: seconds on a busy 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
