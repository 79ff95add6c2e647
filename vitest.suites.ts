// The two suites of the workspace (see the README's "Tests"): `unit` (fast, in-process, run in
// parallel across packages: `pnpm test:unit`) and `integration` (installs, browsers, native
// builds, SurrealDB builds, the CLI end to end, the quality gate: `pnpm test:integration`).
// A package whose tests are all unit tests needs no vitest config; one with integration tests
// names them here, and every other test file of the package is a unit test.
import { configDefaults, defineConfig, type ViteUserConfig } from 'vitest/config';

type TestOptions = NonNullable<ViteUserConfig['test']>;

export interface MosaicSuitesOptions {
  /** Globs (relative to the package) of the integration test files. */
  integration: string[];
  /** Where the package's test files are (default `src/**\/*.test.ts`). */
  include?: string[];
  /** Timeouts and other options shared by both suites. */
  test?: Omit<TestOptions, 'projects' | 'include' | 'exclude'>;
  /** Options of the unit suite only (e.g. a tighter testTimeout). */
  unit?: Omit<TestOptions, 'projects' | 'include' | 'exclude' | 'name'>;
  /** Options of the integration suite only (e.g. its timeouts). */
  integrationTest?: Omit<TestOptions, 'projects' | 'include' | 'exclude' | 'name'>;
}

/** A vitest config with the `unit` and `integration` projects (`vitest run --project unit`). */
export function mosaicSuites(options: MosaicSuitesOptions) {
  const include = options.include ?? ['src/**/*.test.ts'];
  return defineConfig({
    test: {
      ...options.test,
      projects: [
        { extends: true, test: { ...options.unit, name: 'unit', include, exclude: [...configDefaults.exclude, ...options.integration] } },
        { extends: true, test: { ...options.integrationTest, name: 'integration', include: options.integration } },
      ],
    },
  });
}
