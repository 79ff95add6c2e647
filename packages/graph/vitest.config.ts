import { defineConfig } from 'vitest/config';

// Real faiss / large fixtures on a shared 2-core machine: timeouts with headroom.
export default defineConfig({ test: { testTimeout: 30_000 } });
