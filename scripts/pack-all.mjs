#!/usr/bin/env node
// Packs every publishable package of the workspace into one folder, so that a project outside the
// workspace installs the whole set with one command (until the packages are on the npm registry):
//
//   pnpm pack:all                      # → .mosaic/packages/*.tgz (built packages; run `pnpm build` first)
//   cd my-project && ONNXRUNTIME_NODE_INSTALL=skip npm install /path/to/mosaic/.mosaic/packages/*.tgz
//
//   node scripts/pack-all.mjs [--out DIR] [--json]
// `workspace:` ranges become the packed versions (pnpm pack), so the tarballs resolve each other.
// Prints one line per package, then the npm install command; --json prints {"tarballs": [...]} only.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The publishable packages (not `private`) under packages/ and apps/, sorted by folder. */
export function publishablePackages(workspace = root) {
  const found = [];
  for (const parent of ['packages', 'apps']) {
    const folder = join(workspace, parent);
    if (!existsSync(folder)) continue;
    for (const name of readdirSync(folder).sort()) {
      const manifestPath = join(folder, name, 'package.json');
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
      if (!manifest.private) found.push({ dir: join(folder, name), name: manifest.name, version: manifest.version, built: Boolean(manifest.scripts?.build) });
    }
  }
  return found;
}

/** Packs every publishable package into `out` (emptied first); returns the tarball paths. */
export function packAll({ out = join(root, '.mosaic', 'packages'), workspace = root, onPacked } = {}) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const tarballs = [];
  for (const pkg of publishablePackages(workspace)) {
    if (pkg.built && !existsSync(join(pkg.dir, 'dist'))) throw new Error(`${pkg.name} is not built (${pkg.dir}/dist is missing): run pnpm build first`);
    const printed = execFileSync('pnpm', ['pack', '--pack-destination', out], { cwd: pkg.dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const tarball = printed
      .trim()
      .split('\n')
      .reverse()
      .find((line) => line.trim().endsWith('.tgz'))
      ?.trim();
    if (!tarball) throw new Error(`pnpm pack printed no tarball for ${pkg.name}`);
    const path = resolve(pkg.dir, tarball);
    tarballs.push(path);
    onPacked?.(pkg, path);
  }
  return tarballs;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { out: { type: 'string' }, json: { type: 'boolean' } } });
  const out = values.out ? resolve(values.out) : undefined;
  try {
    const tarballs = packAll({
      out,
      onPacked: values.json ? undefined : (pkg, path) => process.stdout.write(`packed ${pkg.name}@${pkg.version} → ${path}\n`),
    });
    if (values.json) process.stdout.write(`${JSON.stringify({ tarballs })}\n`);
    else {
      const folder = dirname(tarballs[0]);
      process.stdout.write(
        `\n${tarballs.length} packages. Install the set in your project with:\n  ONNXRUNTIME_NODE_INSTALL=skip npm install ${folder}/*.tgz\n`,
      );
    }
  } catch (error) {
    process.stderr.write(`pack-all: ${error.message}\n`);
    process.exit(1);
  }
}
