import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRepositoryRoot } from './repository-paths.js';

// ARCHITECTURE.md's dependency table lists, per package, its runtime dependencies (the
// `dependencies` of its package.json, workspace packages without the @mosaic/ scope). This keeps
// the table and the package.json files the same.

const root = findRepositoryRoot();
const manifests = ['packages', 'apps'].flatMap((folder) =>
  readdirSync(join(root, folder)).map((name) => {
    const manifest = JSON.parse(readFileSync(join(root, folder, name, 'package.json'), 'utf8')) as { name: string; dependencies?: Record<string, string> };
    const row = folder === 'apps' ? `${folder}/${name}` : name;
    return { row, dependencies: Object.keys(manifest.dependencies ?? {}).map((dependency) => dependency.replace(/^@mosaic\//, '')) };
  }),
);
const known = new Set(manifests.flatMap((manifest) => [manifest.row.replace(/^apps\//, ''), ...manifest.dependencies]));

/** Package (first cell, in backticks) → the names of the "depends on" cell that are packages. */
function tableRows(markdown: string): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  const header = markdown.split('\n').findIndex((line) => line.startsWith('| package | stage / role | depends on'));
  for (const line of markdown.split('\n').slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line.split(' | ');
    const name = /`([^`]+)`/.exec(cells[0])?.[1];
    if (name)
      rows.set(
        name,
        cells[2].split(/[\s,]+/).filter((word) => known.has(word)),
      );
  }
  return rows;
}

describe('ARCHITECTURE.md dependency table', () => {
  const rows = tableRows(readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8'));

  it('has one row per package', () => {
    expect([...rows.keys()].sort()).toEqual(manifests.map((manifest) => manifest.row).sort());
  });

  it.each(manifests.map((manifest) => [manifest.row, manifest.dependencies] as const))('lists the runtime dependencies of %s', (row, dependencies) => {
    expect([...(rows.get(row) ?? [])].sort()).toEqual([...dependencies].sort());
  });
});
