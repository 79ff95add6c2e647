import { mosaicSuites } from '../../vitest.suites';

// The gate builds the Medical index and two novels' (≈15 s + 5 s quiet, a minute or more on a busy
// 2-core machine) and retrieves 80 questions: its timeout (15 min) only catches a hang.
export default mosaicSuites({ integration: ['src/quality-gate.test.ts'], integrationTest: { testTimeout: 900_000, hookTimeout: 900_000 } });
