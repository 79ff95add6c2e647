import { mosaicSuites } from '../../vitest.suites';

// Integration: building the embedded model (ONNX from the npm word vectors) and the tests that run
// the set-up script first.
export default mosaicSuites({
  integration: ['src/build-embedded-model.test.ts', 'src/embedded-encoder.test.ts'],
  unit: { testTimeout: 30_000, hookTimeout: 60_000 },
  integrationTest: { testTimeout: 300_000, hookTimeout: 600_000 },
});
