#!/usr/bin/env node
// mosaic-offline-setup: build what Mosaic's offline defaults need and `npm install` cannot
// install on a machine that reaches only the npm registry — faiss-node's addon (against the
// system libfaiss) and the embedded encoder model (from the npm word vectors). Idempotent.
import { OfflineSetupError, runOfflineSetup } from '../src/index.mjs';

const USAGE = `Usage: mosaic-offline-setup [options]

Builds, for this project:
  - faiss-node's native addon against the system libfaiss (for @mosaic/vector-index)
      needs: apt-get install g++ make python3 libfaiss-dev libopenblas-dev liblapack-dev libomp-dev
  - the embedded encoder model (for @mosaic/encoders' createEmbeddedEncoder)

Options:
  --project DIR      the project to set up (default: the current directory)
  --model-dir DIR    where the model goes (default: $MOSAIC_MODEL_DIR, else $MOSAIC_HOME/models/wink-sg-100d,
                     else $XDG_CACHE_HOME/mosaic/models/wink-sg-100d, else ~/.cache/mosaic/models/wink-sg-100d)
  --faiss-from DIR   resolve faiss-node from DIR instead of from the installed @mosaic/vector-index
  --no-faiss         skip the faiss addon
  --no-model         skip the embedded model
  --force            rebuild even when up to date
  --verbose          show the compiler's output
  --quiet            print only errors
  -h, --help         this text`;

/** @param {string[]} argv */
function parse(argv) {
  /** @type {import('../src/run-offline-setup.mjs').OfflineSetupOptions & { quiet?: boolean, help?: boolean }} */
  const options = {};
  for (let index = 0; index < argv.length; index += 1) {
    const [flag, inline] = argv[index].split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++index];
    if (flag === '--project') options.projectDir = value();
    else if (flag === '--model-dir') options.modelDir = value();
    else if (flag === '--faiss-from') options.faissFrom = value();
    else if (flag === '--no-faiss') options.faiss = false;
    else if (flag === '--no-model') options.model = false;
    else if (flag === '--force') options.force = true;
    else if (flag === '--verbose') options.verbose = true;
    else if (flag === '--quiet') options.quiet = true;
    else if (flag === '-h' || flag === '--help') options.help = true;
    else throw new Error(`unknown option ${argv[index]}\n\n${USAGE}`);
  }
  return options;
}

try {
  const options = parse(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
  } else {
    const say = options.quiet ? () => {} : (/** @type {string} */ line) => console.log(`[mosaic-offline-setup] ${line}`);
    const result = await runOfflineSetup({ ...options, log: say });
    const seconds = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(1)} s`;
    if ('skipped' in result.faiss) say(`faiss addon: skipped (${result.faiss.skipped})`);
    else
      say(
        `faiss addon: ${result.faiss.built ? 'built' : 'up to date'} (faiss ${result.faiss.faissVersion}, ${seconds(result.faiss.elapsedMs)}): ${result.faiss.addon}`,
      );
    if ('skipped' in result.model) say(`embedded model: skipped (${result.model.skipped})`);
    else say(`embedded model: ${result.model.built ? 'built' : 'up to date'} (${result.model.id}, ${seconds(result.model.elapsedMs)}): ${result.model.outDir}`);
    say(`done in ${seconds(result.elapsedMs)}`);
  }
} catch (error) {
  console.error(`[mosaic-offline-setup] ${OfflineSetupError.isInstance(error) || error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
