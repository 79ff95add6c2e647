import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRepositoryRoot } from './repository-paths.js';

// What a package's shipped source imports must be what ARCHITECTURE.md allows it: its package.json
// `dependencies` (which architecture-table.test.ts keeps equal to the table's "depends on" cell) or
// a declared `peerDependencies` entry. A stage that imports another stage, a package that reaches
// into a sibling's folder (`../../traversal/src/…`), or a dependency used but not declared fails
// here. Shipped source is what the package's entries reach through relative imports (the entries
// of its tsup.config.ts, else the files its `exports` and `bin` name); tests, test helpers, build
// scripts and fixtures may use devDependencies and are not checked; shipped source that imports a
// devDependency-only package (the CLI importing the test kit at run time, say) fails here.
//
// Subpaths: `@mosaic/x/internal` (building blocks, not stable API) and `@mosaic/x/conformance` count
// as `@mosaic/x`, and must be entries that x's package.json `exports` declares. Packages of this
// monorepo may import each other's `./internal` (they are released together); the examples, which
// show what a user writes, may not, and every `./internal` entry says it is not stable API.

const root = findRepositoryRoot();
const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

interface Manifest {
  name: string;
  exports?: Record<string, { import?: string } | string>;
  bin?: Record<string, string> | string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return entry.startsWith('__') ? [] : sourceFiles(path);
    return /\.(ts|tsx|mts|mjs|js)$/.test(entry) && !/\.test\.|\.d\.ts$/.test(entry) ? [path] : [];
  });
}

/** The examples' own code files (not their node_modules or build output). */
function exampleFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return entry === 'node_modules' || entry === 'dist' ? [] : exampleFiles(path);
    return /\.(ts|mts|mjs|js)$/.test(entry) ? [path] : [];
  });
}

/** The module specifiers a file imports or re-exports (static and dynamic). */
export function importSpecifiers(text: string): string[] {
  const found: string[] = [];
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const match of code.matchAll(/^\s*(?:import|export)\s+(?:type\s+)?[\w*\s{},$]*?\s*from\s*['"]([^'"]+)['"]/gm)) found.push(match[1]);
  for (const match of code.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)) found.push(match[1]);
  for (const match of code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(match[1]);
  return found;
}

/** The specifiers a file imports only as types (`import type … from`), erased from the built code. */
export function typeOnlySpecifiers(text: string): Set<string> {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const typeOnly = new Set([...code.matchAll(/^\s*import\s+type\s+[\w*\s{},$]*?\s*from\s*['"]([^'"]+)['"]/gm)].map((m) => m[1]));
  for (const specifier of importSpecifiers(code)) {
    if (!typeOnly.has(specifier)) continue;
    const escaped = specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    if (new RegExp(`^\\s*(?:import|export)\\s+(?!type\\s)[\\w*\\s{},$]*?\\s*from\\s*['"]${escaped}['"]`, 'm').test(code)) typeOnly.delete(specifier);
  }
  return typeOnly;
}

/** A relative specifier's file: the `.js` of a TypeScript source names its `.ts`. */
function resolveRelative(from: string, specifier: string): string | undefined {
  const base = join(from, '..', specifier);
  const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile());
}

/** The package's entry files: tsup entries, else the files `exports` and `bin` name, else every source file. */
function entryFiles(dir: string, manifest: Manifest): string[] {
  const tsup = join(dir, 'tsup.config.ts');
  if (existsSync(tsup)) return [...readFileSync(tsup, 'utf8').matchAll(/['"]((?:src|bin)\/[^'"]+\.m?[jt]sx?)['"]/g)].map((m) => join(dir, m[1]));
  const named = [
    ...Object.values(manifest.exports ?? {}).map((entry) => (typeof entry === 'string' ? entry : entry.import)),
    ...(typeof manifest.bin === 'string' ? [manifest.bin] : Object.values(manifest.bin ?? {})),
  ].filter((path): path is string => typeof path === 'string' && !path.startsWith('./dist/'));
  if (named.length > 0) return named.map((path) => join(dir, path));
  return [...sourceFiles(join(dir, 'src')), ...sourceFiles(join(dir, 'bin'))];
}

/** Every file the entries reach through relative imports. */
function shippedFiles(dir: string, manifest: Manifest): string[] {
  const seen = new Set<string>();
  const queue = entryFiles(dir, manifest).filter((path) => existsSync(path));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of importSpecifiers(readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const target = resolveRelative(file, specifier);
      if (target && !seen.has(target)) queue.push(target);
    }
  }
  return [...seen].sort();
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`). */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const packages = ['packages', 'apps'].flatMap((folder) =>
  readdirSync(join(root, folder)).map((name) => {
    const dir = join(root, folder, name);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
    return { dir, manifest };
  }),
);

const manifests = new Map(packages.map((p) => [p.manifest.name, p.manifest]));

/** A `@mosaic/x/sub` specifier whose subpath x's package.json `exports` does not declare, else undefined. */
export function undeclaredSubpath(specifier: string, exportsOf: (name: string) => Manifest['exports'] | undefined): string | undefined {
  const name = packageOf(specifier);
  const subpath = specifier.slice(name.length);
  if (subpath === '') return undefined;
  const exported = exportsOf(name);
  if (exported === undefined) return undefined;
  return `.${subpath}` in exported ? undefined : `.${subpath}`;
}

describe('imports in shipped source stay within what ARCHITECTURE.md allows', () => {
  it('finds import specifiers of every form', () => {
    const text = `import a from 'x';\nimport type { B } from '@s/y/sub';\nexport { c } from "./c.js";\nimport 'side';\nconst d = await import('dyn');\n// import e from 'commented';\n`;
    expect(importSpecifiers(text)).toEqual(['x', '@s/y/sub', './c.js', 'side', 'dyn']);
    expect([...typeOnlySpecifiers(text)]).toEqual(['@s/y/sub']);
    expect([...typeOnlySpecifiers(`import type { A } from 'm';\nimport { b } from 'm';\n`)]).toEqual([]);
  });

  it.each(packages.map((p) => [p.manifest.name, p] as const))('%s imports only its dependencies and peer dependencies', (_name, { dir, manifest }) => {
    const allowed = new Set([manifest.name, ...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
    const problems: string[] = [];
    const files = shippedFiles(dir, manifest);
    expect(files.length, `${manifest.name}: no entry files found`).toBeGreaterThan(0);
    // A type-only import of a types package (`import type … from 'mdast'` with `@types/mdast` among the
    // devDependencies) leaves nothing in the built code.
    const devOnly = new Set(Object.keys(manifest.devDependencies ?? {}).filter((name) => !allowed.has(name)));
    const typesPackages = new Set(Object.keys(manifest.devDependencies ?? {}).filter((name) => name.startsWith('@types/')));
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const typeOnly = typeOnlySpecifiers(text);
      for (const specifier of importSpecifiers(text)) {
        if (typeOnly.has(specifier) && typesPackages.has(`@types/${packageOf(specifier).replace(/^@([^/]+)\//, '$1__')}`)) continue;
        const where = relative(root, file);
        if (specifier.startsWith('.')) {
          const target = relative(dir, join(file, '..', specifier));
          if (target.startsWith('..')) problems.push(`${where}: reaches outside its package: '${specifier}'`);
          continue;
        }
        if (builtins.has(specifier) || builtins.has(specifier.split('/')[0])) continue;
        if (!allowed.has(packageOf(specifier))) {
          // A devDependency is installed for the package's own tests and build only: a user's `npm install` leaves it out.
          if (devOnly.has(packageOf(specifier))) problems.push(`${where}: imports '${specifier}', only a devDependency (not installed for users)`);
          else problems.push(`${where}: imports '${specifier}', not among its dependencies`);
        }
        const subpath = undeclaredSubpath(specifier, (name) => manifests.get(name)?.exports);
        if (subpath) problems.push(`${where}: imports '${specifier}', but ${packageOf(specifier)} exports no '${subpath}'`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('knows which subpaths a package exports', () => {
    const exportsOf = (name: string) => manifests.get(name)?.exports;
    expect(undeclaredSubpath('@mosaic/indexing/internal', exportsOf)).toBeUndefined();
    expect(undeclaredSubpath('@mosaic/indexing', exportsOf)).toBeUndefined();
    expect(undeclaredSubpath('@mosaic/spec/internal', exportsOf)).toBe('./internal');
    expect(undeclaredSubpath('@mosaic/indexing/src/build/build-index.js', exportsOf)).toBe('./src/build/build-index.js');
  });

  it('every ./internal entry says it is not stable API, and the examples never import one', () => {
    const problems: string[] = [];
    for (const { dir, manifest } of packages) {
      if (!manifest.exports?.['./internal']) continue;
      const source = join(dir, 'src', 'internal.ts');
      if (!existsSync(source)) problems.push(`${manifest.name}: exports ./internal but has no src/internal.ts`);
      else if (
        !readFileSync(source, 'utf8')
          .replace(/\s*\*\s*/g, ' ')
          .replace(/\s+/g, ' ')
          .includes('Not part of the stable API')
      )
        problems.push(`${manifest.name}: src/internal.ts does not say it is not stable API`);
    }
    for (const file of exampleFiles(join(root, 'examples'))) {
      for (const specifier of importSpecifiers(readFileSync(file, 'utf8'))) {
        if (specifier.startsWith('@mosaic/') && specifier.split('/').length > 2 && specifier.endsWith('/internal'))
          problems.push(`${relative(root, file)}: imports '${specifier}'`);
      }
    }
    expect(problems).toEqual([]);
  });
});
