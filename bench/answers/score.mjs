#!/usr/bin/env node
// The answers yardstick (issue 29): index the licence texts Debian ships, ask every question of
// questions.json through the library the CLI runs (createMosaic with the CLI's defaults: offline
// analyzer, fusion reranker, extractive generator, embedded encoder), and print the five figures.
//
//   node bench/answers/score.mjs [--index DIR] [--work DIR] [--json FILE]
//
// --work DIR   where the corpus copy and the index go (default $TMPDIR/mosaic-answers); the index is
//              built once (node apps/demo/dist/cli.js index --corpus DIR/licenses --out DIR/index)
//              and reused when present.
// --index DIR  an index already built from that corpus (DIR/licenses).
// --json FILE  also write every question's outcome there.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const { values } = parseArgs({ options: { index: { type: 'string' }, work: { type: 'string' }, json: { type: 'string' } } });
const questions = JSON.parse(readFileSync(join(here, 'questions.json'), 'utf8'));
const LICENSES = '/usr/share/common-licenses';

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
}

// 1. The corpus: base-files ships the licence texts; install it when they are missing.
if (!existsSync(LICENSES)) run('sh', ['-c', 'apt-get update && apt-get install -y base-files']);
const work = resolve(values.work ?? join(tmpdir(), 'mosaic-answers'));
const corpus = join(work, 'licenses');
let indexDir = values.index ? resolve(values.index) : join(work, 'index', 'licenses');
if (!values.index && !existsSync(join(indexDir, 'manifest.json'))) {
  mkdirSync(corpus, { recursive: true });
  for (const name of readdirSync(LICENSES)) {
    const path = join(LICENSES, name);
    if (!lstatSync(path).isSymbolicLink() && lstatSync(path).isFile()) copyFileSync(path, join(corpus, `${name}.txt`));
  }
  run('node', ['apps/demo/dist/cli.js', 'index', '--corpus', corpus, '--out', join(work, 'index')]);
}
if (existsSync(join(indexDir, 'licenses', 'manifest.json'))) indexDir = join(indexDir, 'licenses');

// 2. The pipeline, as `mosaic ask` builds it.
const load = (pkg) => import(pathToFileURL(join(root, 'packages', pkg, 'dist', 'index.js')).href);
const [{ createEmbeddedEncoder }, { loadIndex }, { createMosaic }, { createCachedAnalyzer, createOfflineAnalyzer }, { createExtractiveGenerator }] =
  await Promise.all([load('encoders'), load('indexing'), load('pipeline'), load('analyzer'), load('generation')]);
const index = await loadIndex({ dir: indexDir, encoder: await createEmbeddedEncoder() });
const mosaic = createMosaic({
  index,
  analyzer: createCachedAnalyzer({ analyzer: createOfflineAnalyzer() }),
  generator: createExtractiveGenerator(),
});

// 3. Ask and score. Text is compared lower-cased with runs of white space as one space.
const norm = (text) => text.toLowerCase().replace(/[“”]/g, '"').replace(/[‘’]/g, "'").replace(/\s+/g, ' ').trim();
const quotedText = (answer) => (Array.isArray(answer.quotes) ? answer.quotes.map((q) => q.text).join(' ') : answer.text);
const outcomes = [];
for (const q of questions.answerable) {
  const result = await mosaic.ask({ question: q.question });
  const top = result.windows[0];
  const phrase = norm(q.phrase);
  const rightDocument = top !== undefined && q.documents.includes(top.documentId);
  const rank = result.windows.findIndex((w) => q.documents.includes(w.documentId) && norm(w.text).includes(phrase));
  outcomes.push({
    id: q.id,
    kind: 'answerable',
    topDocument: top?.documentId,
    rightDocument,
    topHoldsPassage: rank === 0,
    passageRank: rank < 0 ? null : rank + 1,
    quotesSentence: norm(quotedText(result.answer)).includes(phrase),
    abstained: result.answer.abstained === true,
    answer: result.answer.text,
  });
}
for (const q of questions.unanswerable) {
  const result = await mosaic.ask({ question: q.question });
  outcomes.push({ id: q.id, kind: 'unanswerable', abstained: result.answer.abstained === true, reason: result.answer.reason, answer: result.answer.text });
}

const answerable = outcomes.filter((o) => o.kind === 'answerable');
const unanswerable = outcomes.filter((o) => o.kind === 'unanswerable');
const pct = (n) => `${((100 * n) / answerable.length).toFixed(1)} % (${n}/${answerable.length})`;
const count = (list, key) => list.filter((o) => o[key]).length;
for (const o of outcomes) {
  const marks =
    o.kind === 'answerable'
      ? `doc ${o.rightDocument ? 'ok ' : 'NO '} passage@${o.passageRank ?? '-'} quote ${o.quotesSentence ? 'ok ' : 'NO '}${o.abstained ? ' ABSTAINED' : ''} top=${o.topDocument}`
      : `${o.abstained ? 'abstained' : 'ANSWERED'}${o.reason ? ` (${o.reason})` : ''}`;
  console.log(`${o.id.padEnd(24)} ${marks}`);
}
console.log('');
console.log(`index: ${indexDir}`);
console.log(`top window holds the answering passage: ${pct(count(answerable, 'topHoldsPassage'))}`);
console.log(`top window from the right document:     ${pct(count(answerable, 'rightDocument'))}`);
console.log(`answer quotes the answering sentence:   ${pct(count(answerable, 'quotesSentence'))}`);
console.log(`abstains on unanswerable:               ${count(unanswerable, 'abstained')}/${unanswerable.length}`);
console.log(`false abstentions on answerable:        ${count(answerable, 'abstained')}/${answerable.length}`);
if (values.json) writeFileSync(values.json, `${JSON.stringify(outcomes, null, 2)}\n`);
