import { mosaicSuites } from '../vitest.suites';

// Integration: packs every package, installs the tarballs with npm into a fresh project and runs the
// examples there (minutes; more on a busy machine). Unit: the README snippets equal the examples.
export default mosaicSuites({
  include: ['*.test.ts'],
  integration: ['install-from-tarballs.test.ts'],
  unit: { testTimeout: 30_000, hookTimeout: 60_000 },
  integrationTest: { testTimeout: 900_000, hookTimeout: 900_000 },
});
