import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRepositoryRoot } from './repository-paths.js';

// `pnpm version-packages` (changeset version) must work on main: the changesets config has to pass
// changesets' own validation, and the pending changesets must not carry a 0.x package to 1.0 by
// accident. The real release planner decides, loaded from the root's @changesets/cli.

interface Release {
  name: string;
  type: 'none' | 'patch' | 'minor' | 'major';
  oldVersion: string;
  newVersion: string;
}

const root = findRepositoryRoot();
const fromCli = createRequire(createRequire(join(root, 'package.json')).resolve('@changesets/cli/package.json'));
const loaded = fromCli('@changesets/get-release-plan') as { default?: unknown };
const getReleasePlan = (loaded.default ?? loaded) as (cwd: string) => Promise<{ releases: Release[] }>;

describe('release plan (changesets)', () => {
  it('reads the config and the pending changesets without a validation error', async () => {
    const failure = await getReleasePlan(root).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(failure).toBeUndefined();
  });

  it('keeps every 0.x package below 1.0 (a minor of a peer dependency must stay in its range)', async () => {
    const { releases } = await getReleasePlan(root);
    const crossing = releases.filter((r) => r.oldVersion.startsWith('0.') && !r.newVersion.startsWith('0.'));
    expect(crossing.map((r) => `${r.name} ${r.oldVersion} → ${r.newVersion} (${r.type})`)).toEqual([]);
  });
});
