#!/usr/bin/env node
// Sums the vitest JSON reports of every workspace package and prints one plain line,
// `N passed, N failed`. A package with a test script but no report counts as one failure.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
let passed = 0;
let failed = 0;
let skipped = 0;
// Workspace packages: packages/*, apps/*, and the root-level examples/ package.
const locations = [];
for (const group of ['packages', 'apps']) {
  const base = join(root, group);
  if (existsSync(base)) for (const name of readdirSync(base).sort()) locations.push({ group, name, base });
}
locations.push({ group: '.', name: 'examples', base: root });
{
  for (const { group, name, base } of locations) {
    const manifest = join(base, name, 'package.json');
    if (!existsSync(manifest)) continue;
    const scripts = JSON.parse(readFileSync(manifest, 'utf8')).scripts ?? {};
    if (!scripts.test) continue;
    const report = join(base, name, 'test-results.json');
    if (!existsSync(report)) {
      console.log(`${group}/${name}: no test report (the test run did not complete)`);
      failed += 1;
      continue;
    }
    const r = JSON.parse(readFileSync(report, 'utf8'));
    const suiteFailures = (r.testResults ?? []).filter((s) => s.status === 'failed' && (s.assertionResults ?? []).length === 0).length;
    passed += r.numPassedTests ?? 0;
    failed += (r.numFailedTests ?? 0) + suiteFailures;
    skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    console.log(`${group}/${name}: ${r.numPassedTests} passed, ${r.numFailedTests + suiteFailures} failed, ${r.numPendingTests} skipped`);
  }
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
