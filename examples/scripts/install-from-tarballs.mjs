#!/usr/bin/env node
// The used-by check, as a new user on a machine that reaches only the npm registry would do it:
//   1. `pnpm pack` every publishable package (workspace: ranges become versions),
//   2. `npm install` the tarballs, all but the test kit (@mosaic/testing), into a scratch project
//      outside the workspace — plain npm install, install scripts on; only
//      ONNXRUNTIME_NODE_INSTALL=skip, onnxruntime-node's documented switch for its CUDA download —
//      plus typescript and @types/node; @mosaic/testing must not be pulled in,
//   3. `npx mosaic-offline-setup` (the faiss addon against the system libfaiss, the embedded model),
//   4. the mosaic command: --version, index, ask, demo (on its built-in sample corpus), with the
//      test kit not installed,
//   5. the test kit's tarball installed on top (the conformance checks import it, an optional peer),
//   6. run every examples/*.mjs with `node examples/<name>.mjs` (each must exit 0),
//   7. type-check the examples (checkJs, strict, skipLibCheck false, NodeNext) against the
//      installed declaration files.
// Prints one line per step with its time, then `install-from-tarballs: {json summary}`.
//
//   node examples/scripts/install-from-tarballs.mjs [--keep]
// Assumes every package's dist/ is built (`pnpm build`). Third-party packages come from the npm
// registry through npm's cache (~/.npm), so a second run downloads nothing.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packAll } from '../../scripts/pack-all.mjs';

const started = performance.now();
const keep = process.argv.includes('--keep');
const examplesDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const seconds = (since) => Number(((performance.now() - since) / 1000).toFixed(1));
const log = (message) => console.log(`[install-from-tarballs ${seconds(started)}s] ${message}`);
// A new user's environment: nothing of the workspace leaks in — no NODE_PATH (pnpm's bin shims point
// it at the workspace store, where require() would find faiss-node), no npm_/pnpm_ settings of the
// script runner, no workspace directories on PATH. Only the one documented switch is added.
const workspaceRoot = resolve(examplesDir, '..');
const env = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => key !== 'NODE_PATH' && key !== 'INIT_CWD' && !/^(npm|pnpm)_/i.test(key) && !key.startsWith('TURBO_')),
);
env.PATH = (process.env.PATH ?? '')
  .split(':')
  .filter((dir) => dir && !dir.startsWith(workspaceRoot))
  .join(':');
Object.assign(env, { ONNXRUNTIME_NODE_INSTALL: 'skip', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' });
/** Run a command, output captured; on failure its output is printed with the command. */
const run = (command, args, cwd) => {
  try {
    return execFileSync(command, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    console.error(`$ ${command} ${args.join(' ')}  (in ${cwd})\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    throw error;
  }
};
const timings = {};
const step = (name, body) => {
  const since = performance.now();
  const result = body();
  timings[name] = seconds(since);
  log(`${name}: ${timings[name]} s`);
  return result;
};

const scratch = mkdtempSync(join(tmpdir(), 'mosaic-used-by-'));
const project = join(scratch, 'project');
const tarballDir = join(scratch, 'tarballs');
mkdirSync(project, { recursive: true });
let ok = false;
try {
  // 1. pack: the one command the README gives (pnpm pack:all), every publishable package and the CLI
  const tarballs = step('pack', () => packAll({ out: tarballDir }));
  log(`packed ${tarballs.length} packages: ${tarballs.map((path) => basename(path, '.tgz')).join(', ')}`);

  // 2. install, as a user would: plain npm install, scripts on. The test kit (@mosaic/testing) is left
  //    out until step 7: no package a user runs may need it, so nothing may pull it in.
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'mosaic-used-by', private: true, type: 'module' }, null, 2)}\n`);
  const isTestKit = (path) => basename(path).startsWith('mosaic-testing-');
  step('npm install', () =>
    run('npm', ['install', '--prefer-offline', ...tarballs.filter((path) => !isTestKit(path)), 'typescript@~5.9.0', '@types/node@^20.19.0'], project),
  );
  if (existsSync(join(project, 'node_modules', '@mosaic', 'testing')))
    throw new Error('npm installed @mosaic/testing although no tarball named it: a published package depends on the test kit');

  // 3. set up what npm cannot install offline
  const setup = step('mosaic-offline-setup', () => run('npx', ['mosaic-offline-setup'], project));
  process.stdout.write(setup);

  // the examples and their corpus, copied next to the installed packages (mosaic index reads examples/corpus)
  const copied = join(project, 'examples');
  for (const entry of readdirSync(examplesDir)) {
    if (entry.endsWith('.mjs') || ['lib', 'corpus', 'tsconfig.json', 'README.md'].includes(entry)) {
      cpSync(join(examplesDir, entry), join(copied, entry), { recursive: true });
    }
  }

  // 4. the mosaic command, as the README's install section runs it: from the installed set, with npx
  const version = step('npx mosaic --version', () => run('npx', ['mosaic', '--version'], project)).trim();
  log(`mosaic --version: ${version}`);
  step('npx mosaic index', () => run('npx', ['mosaic', 'index', '--corpus', 'examples/corpus', '--out', 'indexes'], project));
  const asked = step('npx mosaic ask --json', () =>
    run('npx', ['mosaic', 'ask', '--index', 'indexes/corpus', '--json', 'Which drug treats Morrow syndrome?'], project),
  );
  const answer = JSON.parse(asked).answer; // --json: nothing but the JSON on stdout
  const cli = { version, answer: answer.text, quotedFrom: (answer.quotes ?? []).map((quote) => quote.source.documentId) };
  console.log(`mosaic ask: ${cli.answer.slice(0, 200)}`);
  // mosaic demo outside the workspace: no GraphRAG-Bench here, so the built-in sample corpus (no test kit installed)
  const demo = step('npx mosaic demo --count 1', () => run('npx', ['mosaic', 'demo', '--count', '1'], project));
  if (!demo.includes('using the built-in sample corpus')) throw new Error(`mosaic demo did not use the built-in sample corpus:\n${demo}`);
  cli.demoAnswered = (demo.match(/^Expected answer: /gm) ?? []).length;

  // 5. the test kit installs on top: it is published for users' own stage tests, and the
  //    conformance checks (`@mosaic/window-reranker/conformance`, …) import it as an optional peer
  step('npm install @mosaic/testing', () => run('npm', ['install', '--prefer-offline', ...tarballs.filter(isTestKit)], project));

  // 6. the examples, run one by one
  const examples = readdirSync(copied)
    .filter((entry) => entry.endsWith('.mjs'))
    .sort();
  const ran = {};
  for (const example of examples) {
    const output = step(`node examples/${example}`, () => run('node', [`examples/${example}`], project));
    ran[example] = output.trim().split('\n').length;
    console.log(
      output
        .trim()
        .split('\n')
        .map((line) => `    ${line}`)
        .join('\n'),
    );
  }

  // 7. the examples' types against the installed .d.ts files, skipLibCheck false
  step('tsc (checkJs, skipLibCheck false)', () => run('npx', ['tsc', '-p', 'examples/tsconfig.json'], project));

  ok = true;
  console.log(`install-from-tarballs: ${JSON.stringify({ packages: tarballs.length, examples: ran, cli, timings, total: seconds(started) })}`);
} finally {
  if (keep || !ok) log(`scratch directory kept: ${scratch}`);
  else rmSync(scratch, { recursive: true, force: true });
}
