import { defineConfig } from 'vitest/config';

// Builds with real faiss, wink-nlp and worker threads on a shared 2-core machine: generous timeouts.
export default defineConfig({ test: { testTimeout: 60_000, hookTimeout: 60_000 } });
