import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { OfflineSetupError } from './offline-setup-error.mjs';

/**
 * The nearest `node_modules/<name>` directory at or above `start`, if any.
 * @param {string} start
 * @param {string} name package name
 * @returns {string | undefined}
 */
export function findInstalledPackage(start, name) {
  let directory = resolve(start);
  for (;;) {
    const candidate = join(directory, 'node_modules', ...name.split('/'));
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}

/**
 * faiss-node's package directory as seen from `from` (Node resolution), or undefined.
 * @param {string} from
 * @returns {string | undefined}
 */
function resolveFaissNode(from) {
  try {
    return realpathSync(dirname(createRequire(join(from, 'noop.js')).resolve('faiss-node/package.json')));
  } catch {
    return undefined;
  }
}

/**
 * @typedef {object} LocatedFaissNode
 * @property {string} faissDir faiss-node's package directory
 * @property {boolean} installed true when this call installed it (npm dropped it: its own install script failed)
 */

/**
 * Find the faiss-node that @mosaic/vector-index loads. `faissFrom`: resolve from that directory
 * (the workspace passes packages/vector-index). Otherwise the nearest installed
 * `@mosaic/vector-index` at or above `projectDir`; none → undefined (nothing needs faiss).
 * When npm dropped faiss-node (an optional dependency whose install script, a binary download,
 * failed), it is installed again without scripts: `npm install --no-save --ignore-scripts
 * faiss-node@<the version @mosaic/vector-index asks for>` in the project that holds @mosaic/vector-index.
 * @param {{ projectDir: string, faissFrom?: string, log?: (message: string) => void }} options
 * @returns {LocatedFaissNode | undefined}
 */
export function locateFaissNode(options) {
  const log = options.log ?? (() => {});
  if (options.faissFrom) {
    const faissDir = resolveFaissNode(resolve(options.faissFrom));
    if (!faissDir) throw new OfflineSetupError({ step: 'faiss', message: `faiss-node cannot be resolved from ${options.faissFrom}` });
    return { faissDir, installed: false };
  }
  const vectorIndexDir = findInstalledPackage(options.projectDir, '@mosaic/vector-index');
  if (!vectorIndexDir) return undefined;
  const found = resolveFaissNode(realpathSync(vectorIndexDir));
  if (found) return { faissDir: found, installed: false };

  const manifest = JSON.parse(readFileSync(join(vectorIndexDir, 'package.json'), 'utf8'));
  const version = manifest.optionalDependencies?.['faiss-node'] ?? manifest.dependencies?.['faiss-node'];
  if (!version) throw new OfflineSetupError({ step: 'faiss', message: `${vectorIndexDir}/package.json names no faiss-node version` });
  // <project>/node_modules/@mosaic/vector-index → <project>
  const project = dirname(dirname(dirname(vectorIndexDir)));
  log(
    `faiss-node is not installed (npm drops it when its own install script fails); npm install --no-save --ignore-scripts faiss-node@${version} in ${project}`,
  );
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['install', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', `faiss-node@${version}`], {
    cwd: project,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const faissDir = resolveFaissNode(realpathSync(vectorIndexDir));
  if (result.status !== 0 || !faissDir) {
    throw new OfflineSetupError({
      step: 'faiss',
      message: `npm install faiss-node@${version} failed (exit ${result.status ?? result.signal}):\n${`${result.stdout ?? ''}${result.stderr ?? ''}`.trim()}`,
    });
  }
  return { faissDir, installed: true };
}
