#!/usr/bin/env node
// Sums the vitest JSON reports of every workspace package, both suites (test-results.unit.json of
// `test:unit`, test-results.integration.json of `test:integration`), prints each package's suite
// with its wall time, then one plain line over both suites: `N passed, N failed`. A package with a
// suite script but no report counts as one failure. `--json FILE` also writes the per-suite figures.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const jsonOut = process.argv.includes('--json') ? process.argv[process.argv.indexOf('--json') + 1] : undefined;
let passed = 0;
let failed = 0;
let skipped = 0;
const rows = [];
// Workspace packages: packages/*, apps/*, and the root-level examples/ package.
const locations = [];
for (const group of ['packages', 'apps']) {
  const base = join(root, group);
  if (existsSync(base)) for (const name of readdirSync(base).sort()) locations.push({ group, name, base });
}
locations.push({ group: '.', name: 'examples', base: root });

/** Wall time of one vitest JSON report: its start to the last test file's end (seconds). */
function wallSeconds(report) {
  const ends = (report.testResults ?? []).map((s) => s.endTime ?? 0);
  return ends.length && report.startTime ? (Math.max(...ends) - report.startTime) / 1000 : 0;
}

for (const suite of ['unit', 'integration']) {
  for (const { group, name, base } of locations) {
    const manifest = join(base, name, 'package.json');
    if (!existsSync(manifest)) continue;
    const scripts = JSON.parse(readFileSync(manifest, 'utf8')).scripts ?? {};
    if (!scripts[`test:${suite}`]) continue;
    const report = join(base, name, `test-results.${suite}.json`);
    if (!existsSync(report)) {
      console.log(`${suite} ${group}/${name}: no test report (the test run did not complete)`);
      failed += 1;
      rows.push({ suite, package: `${group}/${name}`, passed: 0, failed: 1, skipped: 0, seconds: null });
      continue;
    }
    const r = JSON.parse(readFileSync(report, 'utf8'));
    const suiteFailures = (r.testResults ?? []).filter((s) => s.status === 'failed' && (s.assertionResults ?? []).length === 0).length;
    const row = {
      suite,
      package: `${group}/${name}`,
      passed: r.numPassedTests ?? 0,
      failed: (r.numFailedTests ?? 0) + suiteFailures,
      skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
      seconds: Math.round(wallSeconds(r) * 10) / 10,
    };
    rows.push(row);
    passed += row.passed;
    failed += row.failed;
    skipped += row.skipped;
    console.log(`${suite} ${group}/${name}: ${row.passed} passed, ${row.failed} failed, ${row.skipped} skipped (${row.seconds} s)`);
  }
}
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify(rows, null, 2)}\n`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
