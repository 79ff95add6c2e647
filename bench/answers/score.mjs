#!/usr/bin/env node
// The answers yardstick (issue 29, generalised in issue 30): index a corpus, ask every question of a
// question file through the library the CLI runs (createMosaic with the CLI's defaults: offline
// analyzer, fusion reranker, extractive generator, embedded encoder), and print the five figures.
//
//   node bench/answers/score.mjs [--corpus PATH] [--questions FILE] [--name NAME]
//                                [--include GLOB]... [--exclude GLOB]... [--index DIR] [--work DIR] [--json FILE]
//
// Without --corpus and --questions it is the licences run: the licence texts Debian ships in
// /usr/share/common-licenses, each copied to NAME.txt, asked the questions of questions.json here.
//
// --questions FILE  the question file (default bench/answers/questions.json): {corpus, answerable:
//                   [{id, question, documents, phrase}], unanswerable: [{id, question}]}, and optionally
//                   path (the corpus folder or file) and name (the corpus name), used when the flags
//                   below are absent. E.g. bench/answers/postgresql-html/questions.json.
// --corpus PATH     the folder or document file to index (default: the question file's path, else
//                   the licences); read in place, by format, as `mosaic index --corpus PATH` reads it.
// --name NAME       the corpus name (default: the question file's name, else the folder name).
// --include GLOB / --exclude GLOB
//                   passed to `mosaic index` (repeatable): index only part of the corpus.
// --work DIR        where the index goes (default $TMPDIR/mosaic-answers): DIR/index/NAME, built once
//                   (node apps/demo/dist/cli.js index --corpus PATH --out DIR/index) and reused when
//                   it was built from the same corpus, include and exclude globs.
// --index DIR       an index already built from that corpus (nothing is built).
// --json FILE       also write every question's outcome there.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const { values } = parseArgs({
  options: {
    index: { type: 'string' },
    work: { type: 'string' },
    json: { type: 'string' },
    corpus: { type: 'string' },
    questions: { type: 'string' },
    name: { type: 'string' },
    include: { type: 'string', multiple: true },
    exclude: { type: 'string', multiple: true },
  },
});
const questionsFile = resolve(values.questions ?? join(here, 'questions.json'));
const questions = JSON.parse(readFileSync(questionsFile, 'utf8'));
const LICENSES = '/usr/share/common-licenses';

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
}

// 1. The corpus. The licences (the default): base-files ships them; install it when they are
// missing, and copy each regular file to NAME.txt (the question file's document ids).
const work = resolve(values.work ?? join(tmpdir(), 'mosaic-answers'));
const corpusArg = values.corpus ?? questions.path;
const licences = corpusArg === undefined;
const corpus = licences ? join(work, 'licenses') : resolve(corpusArg);
const name = values.name ?? questions.name ?? (licences ? 'licenses' : basename(corpus, extname(corpus)));
const globs = [...(values.include ?? []).flatMap((g) => ['--include', g]), ...(values.exclude ?? []).flatMap((g) => ['--exclude', g])];
let indexDir = values.index ? resolve(values.index) : join(work, 'index', name);
// What the index at DIR/index/NAME was built from: rebuilt when the corpus or the globs differ (a
// licences index without this record was built by the earlier script, from all the licences).
const stampFile = join(work, 'index', `${name}.source.json`);
const stamp = JSON.stringify({ corpus, globs });
const previous = existsSync(stampFile) ? readFileSync(stampFile, 'utf8') : licences ? JSON.stringify({ corpus, globs: [] }) : undefined;
const built = existsSync(join(indexDir, 'manifest.json')) && previous === stamp;
if (!values.index && !built) {
  if (licences) {
    if (!existsSync(LICENSES)) run('sh', ['-c', 'apt-get update && apt-get install -y base-files']);
    mkdirSync(corpus, { recursive: true });
    for (const file of readdirSync(LICENSES)) {
      const path = join(LICENSES, file);
      if (!lstatSync(path).isSymbolicLink() && lstatSync(path).isFile()) copyFileSync(path, join(corpus, `${file}.txt`));
    }
  } else if (!existsSync(corpus)) {
    const hint = questions.package ? ` (apt-get install -y ${questions.package})` : '';
    throw new Error(`the corpus ${corpus} does not exist${hint}`);
  }
  run('node', ['apps/demo/dist/cli.js', 'index', '--corpus', corpus, '--corpus-name', name, ...globs, '--out', join(work, 'index')]);
  writeFileSync(stampFile, stamp);
}
if (existsSync(join(indexDir, name, 'manifest.json'))) indexDir = join(indexDir, name);

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
console.log(`corpus: ${licences ? `${LICENSES} (copied to ${corpus})` : corpus}${globs.length > 0 ? ` ${globs.join(' ')}` : ''}`);
console.log(`questions: ${questionsFile} (${questions.answerable.length} answerable, ${questions.unanswerable.length} unanswerable)`);
console.log(`index: ${indexDir}`);
console.log(`top window holds the answering passage: ${pct(count(answerable, 'topHoldsPassage'))}`);
console.log(`top window from the right document:     ${pct(count(answerable, 'rightDocument'))}`);
console.log(`answer quotes the answering sentence:   ${pct(count(answerable, 'quotesSentence'))}`);
console.log(`abstains on unanswerable:               ${count(unanswerable, 'abstained')}/${unanswerable.length}`);
console.log(`false abstentions on answerable:        ${count(answerable, 'abstained')}/${answerable.length}`);
if (values.json) writeFileSync(values.json, `${JSON.stringify(outcomes, null, 2)}\n`);
