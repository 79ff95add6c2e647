#!/usr/bin/env node
/**
 * The cost curve of Mosaic on real documentation: builds, loads and queries corpora of about
 * 1, 10, 30 and 100 MB of text assembled from Debian documentation packages, and prints per size
 * the build seconds, peak build RSS, index size on disk, load seconds, the seconds of the pipeline's
 * warm-up after loading (`Mosaic.warmUp`, which `mosaic retrieve` runs before its first question:
 * the latencies below are those of a warmed-up process) and retrieval p50 / p95, with
 * GraphRAG-Bench Medical's p50 and p95 measured in the same run: the issue's ratios (p50 and p95 each
 * divided by Medical's p50), and the p95 divided by Medical's own p95 (Medical's p95 is itself about
 * four times its p50 after `Mosaic.warmUp`: its first questions; after the 64 questions `mosaic serve`
 * warms up with, about twice: docs/results/issue-31.md, session 38).
 *
 *   node apps/demo/scripts/scale-bench.mjs [--sizes 1,10,30,100] [--work /tmp/mosaic-scale]
 *     [--install] [--questions 40] [--medical FILE] [--assemble-only]
 *     [--baseline DIR [--throughput-corpus DIR | --throughput-size 12]]
 *
 * --install         apt-get update + install (never removing anything) linux-doc-6.1
 *                   python3.11-doc postgresql-doc-15 perl-doc git-doc sqlite3-doc (root). Those six
 *                   hold about 100 MB of text with the wider sources below; the four first about 60.
 *                   (Do not add nodejs-doc: it conflicts with a nodesource nodejs and removes it.)
 * --sizes           corpus sizes in MB of text (default 1,10,30,100).
 * --questions       questions per corpus (default 40), made from the titles of seeded-random
 *                   documents ("What does the documentation say about <title>?"); the
 *                   "title found" column counts those with a retrieved window that holds the
 *                   document's line the title was made from.
 * --medical         GraphRAG-Bench medical.json (default $MOSAIC_DATASETS_DIR, else
 *                   ../shared/datasets/graphrag-bench/ from the repository root); its dev
 *                   questions are the reference latency.
 * --baseline        a built copy of the repository at another commit (e.g. /tmp/base31 for f9a3db6):
 *                   after the sizes, the throughput corpus is built with this CLI, then with the
 *                   baseline's, and both are loaded: build s, MB/s, peak RSS, index MB, load s of
 *                   each and the speedup (base s ÷ this s), measured in one run.
 * --throughput-corpus  the corpus of that comparison (e.g. a copy of the Python 3.11 docs'
 *                   _sources); default: the assembled --throughput-size MB corpus (12).
 * --base-cli        only another CLI (no load time for it), instead of --baseline.
 * --assemble-only   assemble the --sizes corpora under <work>/corpora and stop.
 * --reuse           an index already under <work>/index-<size>mb (or index-medical) is not built
 *                   again: its build seconds and peak RSS are read from its manifest (buildTimeMs,
 *                   peakRssBytes of the building process), so a build measured on its own (e.g.
 *                   under /usr/bin/time) is loaded and queried by the bench.
 * --cli             the CLI measured (default apps/demo/dist/cli.js of this repository).
 *
 * After the table, where the latency goes: each stage's p50 / p95 (analyze, encode, seeds, traverse,
 * evidence, rerank, ground) per size and for Medical, from `mosaic retrieve --timings` (a CLI
 * without that flag gives none).
 *
 * The corpora are folders of .txt files (the Python .rst sources, the Linux Documentation tree,
 * the Perl pods, the PostgreSQL HTML manual with its tags stripped), files taken round-robin
 * from the four sources in path order, so each size holds the smaller ones. Nothing is committed:
 * everything goes under --work. Results also go to <work>/results.jsonl.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../../..');
const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1,10,30,100' },
    work: { type: 'string', default: '/tmp/mosaic-scale' },
    install: { type: 'boolean', default: false },
    questions: { type: 'string', default: '40' },
    medical: { type: 'string', default: resolve(process.env.MOSAIC_DATASETS_DIR ?? resolve(repo, '../shared/datasets/graphrag-bench'), 'medical.json') },
    cli: { type: 'string', default: resolve(here, '../dist/cli.js') },
    'base-cli': { type: 'string' },
    baseline: { type: 'string' },
    'throughput-corpus': { type: 'string' },
    'throughput-size': { type: 'string', default: '12' },
    'assemble-only': { type: 'boolean', default: false },
    reuse: { type: 'boolean', default: false },
  },
});
const work = resolve(values.work);
mkdirSync(work, { recursive: true });
const sizes = values.sizes.split(',').map(Number);
const log = (line) => process.stderr.write(`[scale-bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

if (values.install) {
  for (const args of [
    ['update'],
    ['install', '-y', '--no-remove', 'linux-doc-6.1', 'python3.11-doc', 'postgresql-doc-15', 'perl-doc', 'git-doc', 'sqlite3-doc'],
  ]) {
    const run = spawnSync('apt-get', args, { stdio: 'inherit' });
    if (run.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed`);
  }
}

// ---- corpus assembly ------------------------------------------------------------------------
function walk(dir, keep, out = []) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, keep, out);
    else if (entry.isFile() && keep(path)) out.push(path);
  }
  return out;
}
const htmlText = (html) =>
  html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n\s*\n+/g, '\n\n');
/** Text of a gzip'd file, or '' when it holds NUL bytes (not text). */
const gzText = (p) => {
  const text = gunzipSync(readFileSync(p)).toString('utf8');
  return text.includes('\0') ? '' : text;
};
const SOURCES = [
  { name: 'python', files: () => walk('/usr/share/doc/python3.11/html/_sources', (p) => p.endsWith('.txt')), text: (p) => readFileSync(p, 'utf8') },
  {
    name: 'linux',
    // The reST and text first (the prose), then every other gzip'd text file of the tree (device-tree
    // bindings in YAML, ABI descriptions, example scripts), which the 100 MB corpus needs.
    files: () => {
      const prose = (p) => p.endsWith('.rst.gz') || p.endsWith('.txt.gz');
      const all = walk('/usr/share/doc/linux-doc-6.1/Documentation', (p) => p.endsWith('.gz'));
      return [...all.filter(prose), ...all.filter((p) => !prose(p))];
    },
    text: gzText,
  },
  {
    name: 'perl',
    // The pods first, then the modules (their embedded POD and code).
    files: () => [
      ...walk('/usr/share/perl', (p) => p.endsWith('.pod')),
      ...walk('/usr/share/doc/perl', (p) => p.endsWith('.pod.gz')),
      ...walk('/usr/share/perl', (p) => p.endsWith('.pm')),
    ],
    text: (p) => (p.endsWith('.gz') ? gunzipSync(readFileSync(p)) : readFileSync(p)).toString('utf8'),
  },
  {
    name: 'postgresql',
    files: () => walk('/usr/share/doc/postgresql-doc-15/html', (p) => p.endsWith('.html')),
    text: (p) => htmlText(readFileSync(p, 'utf8')),
  },
  // Only with --install (or installed by hand): the git manual pages' AsciiDoc and SQLite's HTML.
  { name: 'git', files: () => walk('/usr/share/doc/git-doc', (p) => p.endsWith('.txt')), text: (p) => readFileSync(p, 'utf8') },
  { name: 'sqlite', files: () => walk('/usr/share/doc/sqlite3', (p) => p.endsWith('.html')), text: (p) => htmlText(readFileSync(p, 'utf8')) },
  // A reserve, read only when the sources above run out (the 100 MB corpus): the English manual
  // pages installed with the system's packages, groff requests reduced to their text.
  {
    name: 'man',
    reserve: true,
    files: () => walk('/usr/share/man', (p) => /\/man[1-8]\/[^/]+\.gz$/.test(p)),
    text: (p) => manText(gzText(p)),
  },
];

/** A man page's text: comments dropped, request names dropped (their arguments kept), font escapes removed. */
function manText(groff) {
  return groff
    .split('\n')
    .filter((line) => !line.startsWith('.\\"') && !line.startsWith('\'\\"'))
    .map((line) => (line.startsWith('.') ? line.replace(/^\.\S*\s?/, '') : line))
    .join('\n')
    .replace(/\\f[BIRP]|\\f\(..|\\s[+-]?\d/g, '')
    .replace(/\\-/g, '-')
    .replace(/\\\(em/g, '—')
    .replace(/\\&/g, '')
    .replace(/\n{3,}/g, '\n\n');
}

/** The files of a corpus of `mb` MB: round-robin over the sources, each in path order. */
function assemble(mb) {
  const dir = join(work, 'corpora', `docs-${mb}mb`);
  if (existsSync(join(dir, '.complete'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  const all = SOURCES.map((source) => ({ source, files: source.files(), next: 0 }));
  // Round-robin over the main sources; the reserves only once those are exhausted (so that the
  // smaller corpora are the same whether or not a reserve is installed).
  const main = all.filter((l) => !l.source.reserve);
  let lists = main;
  if (all.every((l) => l.files.length === 0)) throw new Error('no documentation found: run with --install (root)');
  const target = mb * 1e6;
  let bytes = 0;
  let count = 0;
  for (;;) {
    if (bytes >= target) break;
    if (!lists.some((l) => l.next < l.files.length)) {
      if (lists !== main) break;
      lists = all.filter((l) => l.source.reserve);
      continue;
    }
    for (const list of lists) {
      if (bytes >= target || list.next >= list.files.length) continue;
      const path = list.files[list.next++];
      const text = list.source.text(path).trim();
      if (text.length < 200) continue;
      const name = `${list.source.name}/${relative('/usr/share', path)
        .replace(/[/]/g, '__')
        .replace(/\.(gz|html|pod|rst|txt)$/g, '')}.txt`;
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
      bytes += Buffer.byteLength(text);
      count += 1;
    }
  }
  writeFileSync(join(dir, '.complete'), `${bytes} ${count}\n`);
  log(`assembled ${dir}: ${(bytes / 1e6).toFixed(1)} MB in ${count} files`);
  if (bytes < target * 0.97) log(`WARNING: the installed documentation holds only ${(bytes / 1e6).toFixed(1)} MB of text, not ${mb} MB (run with --install)`);
  return dir;
}
const corpusBytes = (dir) => Number(readFileSync(join(dir, '.complete'), 'utf8').split(' ')[0]);

// ---- questions ------------------------------------------------------------------------------
function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
/** A line of a document as a question's title: markup runs (underlines, emphasis, heading marks) removed. */
const titleOf = (line) => line.replace(/[=*#`:_~^-]{2,}|[`*]/g, '').trim();
function questions(dir, name, count) {
  const files = walk(dir, (p) => p.endsWith('.txt'));
  const random = seeded(31);
  const out = [];
  for (let i = 0; i < count * 4 && out.length < count; i++) {
    const text = readFileSync(files[Math.floor(random() * files.length)], 'utf8');
    const line = text.split('\n').find((raw) => {
      const title = titleOf(raw);
      return title.length >= 8 && title.length <= 80 && /[a-z]/i.test(title);
    });
    // `line`: the document's own line the title was cleaned from (what "title found" looks for).
    if (line) out.push({ id: `${name}-${out.length}`, source: name, question: `What does the documentation say about ${titleOf(line)}?`, line });
  }
  const path = join(work, `${name}.questions.json`);
  writeFileSync(path, JSON.stringify(out));
  return { path, sourceLines: new Map(out.map((q) => [q.id, q.line])) };
}

// ---- measuring ------------------------------------------------------------------------------
function timed(args) {
  const run = spawnSync('/usr/bin/time', ['-v', process.execPath, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const field = (label) => run.stderr.match(new RegExp(`${label}: (.+)`))?.[1]?.trim();
  const clock = field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)') ?? '0:0';
  const seconds = clock.split(':').reduce((total, part) => total * 60 + Number(part), 0);
  if (run.status !== 0) throw new Error(`${args.join(' ')} failed (${run.status}):\n${run.stderr.slice(-3000)}`);
  return { seconds, peakRssMb: Number(field('Maximum resident set size \\(kbytes\\)') ?? 0) / 1024, stdout: run.stdout };
}
const du = (dir) => Number(spawnSync('du', ['-sb', dir], { encoding: 'utf8' }).stdout.split('\t')[0]);
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  const at = (sorted.length - 1) * p;
  const low = Math.floor(at);
  return sorted[low] + (sorted[Math.min(low + 1, sorted.length - 1)] - sorted[low]) * (at - low);
};
function build(cli, corpus, out) {
  const existing = existsSync(out) ? readdirSync(out).filter((name) => !name.startsWith('.') && existsSync(join(out, name, 'manifest.json'))) : [];
  if (values.reuse && existing.length === 1) {
    const manifest = JSON.parse(readFileSync(join(out, existing[0], 'manifest.json'), 'utf8'));
    log(`reusing ${join(out, existing[0])} (built ${manifest.createdAt})`);
    return { seconds: manifest.buildTimeMs / 1000, peakRssMb: (manifest.peakRssBytes ?? 0) / 1048576, stdout: '', dir: join(out, existing[0]) };
  }
  rmSync(out, { recursive: true, force: true });
  const measured = timed([cli, 'index', '--corpus', corpus, '--out', out]);
  const [dir] = readdirSync(out).filter((name) => !name.startsWith('.'));
  return { ...measured, dir: join(out, dir) };
}
/**
 * Seconds to load the index (loadIndex), and to warm it up after (the pipeline's warmUp, which
 * `mosaic retrieve` runs before its first question; 0 for a tree whose pipeline has none).
 */
function loadSeconds(index, scripts = here) {
  const script = `import { loadIndex } from '@mosaic/indexing'; import { createEmbeddedEncoder } from '@mosaic/encoders'; import { createMosaic } from '@mosaic/pipeline';
const encoder = await createEmbeddedEncoder(); const t = performance.now(); const index = await loadIndex({ dir: ${JSON.stringify(index)}, encoder });
const loaded = performance.now(); const mosaic = createMosaic({ index }); if (mosaic.warmUp) await mosaic.warmUp();
console.log(((loaded - t) / 1000).toFixed(2), mosaic.warmUp ? ((performance.now() - loaded) / 1000).toFixed(2) : '0');`;
  const path = join(scripts, '.scale-bench-load.mjs');
  mkdirSync(scripts, { recursive: true }); // a baseline tree may have no scripts folder
  writeFileSync(path, script);
  try {
    const run = spawnSync(process.execPath, [path], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`loading ${index} failed:\n${run.stderr.slice(-2000)}`);
    const [load, warmUp] = run.stdout.trim().split(' ').map(Number);
    return { load, warmUp };
  } finally {
    rmSync(path, { force: true });
  }
}
/** Whether `cli retrieve` has --timings (each line's stage_ms); a CLI of an older commit may not. */
const stagesOf = new Map();
function hasTimings(cli) {
  if (!stagesOf.has(cli)) stagesOf.set(cli, spawnSync(process.execPath, [cli, 'retrieve', '--help'], { encoding: 'utf8' }).stdout.includes('--timings'));
  return stagesOf.get(cli);
}
/** Per stage (those of stage_ms, in its order, without the retrieval and total sums), the p50 and p95 of the lines' stage_ms (undefined without them). */
function stagePercentiles(lines) {
  if (lines.length === 0 || !lines.every((line) => line.stage_ms)) return undefined;
  const stages = Object.keys(lines[0].stage_ms).filter((stage) => stage !== 'retrieval' && stage !== 'total');
  return Object.fromEntries(
    stages.map((stage) => {
      const values = lines.map((line) => line.stage_ms[stage] ?? 0);
      return [stage, { p50: percentile(values, 0.5), p95: percentile(values, 0.95) }];
    }),
  );
}
function retrieve(cli, index, questionFile, limit) {
  const out = join(work, 'retrieve.jsonl');
  const run = spawnSync(
    process.execPath,
    [
      cli,
      'retrieve',
      '--index',
      index,
      '--questions',
      questionFile,
      '--out',
      out,
      ...(limit ? ['--limit', String(limit)] : []),
      ...(hasTimings(cli) ? ['--timings'] : []),
    ],
    {
      encoding: 'utf8',
    },
  );
  if (run.status !== 0) throw new Error(`retrieve on ${index} failed:\n${run.stderr.slice(-2000)}`);
  const lines = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const latencies = lines.map((line) => line.latency_ms);
  return { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95), n: latencies.length, lines, stages: stagePercentiles(lines) };
}

/**
 * A rough check that retrieval at this size still finds what it is asked about: of the questions made
 * from a document's title (`questions`, whose `sourceLines` map a question id to the document's line the
 * title came from), how many have a context (of the windows `mosaic retrieve` gives, its output
 * `lines`) that holds that line, whitespace and case aside. Not a gold standard: a line such as "#
 * SPDX-License-Identifier: GPL-2.0" heads thousands of files, and a window holding it need not be from
 * the document it came from.
 */
function titlesFound(sourceLines, lines) {
  const plain = (text) => text.replace(/\s+/g, ' ').trim().toLowerCase();
  let asked = 0;
  let found = 0;
  for (const line of lines) {
    const source = sourceLines.get(line.id);
    if (typeof source !== 'string') continue;
    asked += 1;
    if (line.contexts.some((context) => plain(context).includes(plain(source)))) found += 1;
  }
  return { found, asked };
}

// ---- the run --------------------------------------------------------------------------------
if (values['assemble-only']) {
  for (const mb of sizes) console.log(`${assemble(mb)}\t${(corpusBytes(assemble(mb)) / 1e6).toFixed(1)} MB`);
  process.exit(0);
}
log(`load ${load()}; building Medical (the latency reference)`);
const medical = build(values.cli, values.medical, join(work, 'index-medical'));
const medicalQuestions = resolve(dirname(values.medical), 'medical_questions.dev.json');
const results = [];
const header =
  '| corpus MB | files | build s | MB/s | peak RSS GiB | index MB | index ÷ corpus | load s | warm-up s | p50 ms | p95 ms | Medical p50 ms | Medical p95 ms | p50 ÷ Medical | p95 ÷ Medical p50 | p95 ÷ Medical p95 | title found | load avg |';
console.log(header);
console.log(header.replace(/[^|]+/g, '---'));
for (const mb of sizes) {
  const corpus = assemble(mb);
  const bytes = corpusBytes(corpus);
  const files = Number(readFileSync(join(corpus, '.complete'), 'utf8').split(' ')[1]);
  const loadBefore = load();
  log(`docs-${mb}mb: building (load ${loadBefore})`);
  const built = build(values.cli, corpus, join(work, `index-${mb}mb`));
  const indexBytes = du(built.dir);
  log(`docs-${mb}mb: built in ${built.seconds.toFixed(0)} s, peak ${(built.peakRssMb / 1024).toFixed(2)} GiB, ${(indexBytes / 1e6).toFixed(0)} MB`);
  const loaded = loadSeconds(built.dir);
  const asked = questions(corpus, `docs-${mb}mb`, Number(values.questions));
  const docs = retrieve(values.cli, built.dir, asked.path);
  // Medical right after, in the same minutes, for the ratio.
  const reference = retrieve(values.cli, medical.dir, medicalQuestions, Number(values.questions));
  const row = {
    mb: bytes / 1e6,
    files,
    buildSeconds: built.seconds,
    peakRssGb: built.peakRssMb / 1024, // GiB (2^30 bytes; the field keeps its name for earlier results files)
    indexMb: indexBytes / 1e6,
    indexRatio: indexBytes / bytes,
    loadSeconds: loaded.load,
    warmUpSeconds: loaded.warmUp,
    p50: docs.p50,
    p95: docs.p95,
    medicalP50: reference.p50,
    medicalP95: reference.p95,
    titlesFound: titlesFound(asked.sourceLines, docs.lines),
    stages: docs.stages,
    medicalStages: reference.stages,
    load: `${loadBefore} → ${load()}`,
  };
  results.push(row);
  appendFileSync(join(work, 'results.jsonl'), `${JSON.stringify({ date: new Date().toISOString(), ...row })}\n`);
  console.log(
    `| ${row.mb.toFixed(1)} | ${files} | ${row.buildSeconds.toFixed(0)} | ${(row.mb / row.buildSeconds).toFixed(3)} | ${row.peakRssGb.toFixed(2)} | ${row.indexMb.toFixed(0)} | ${row.indexRatio.toFixed(1)}× | ${row.loadSeconds.toFixed(1)} | ${row.warmUpSeconds.toFixed(1)} | ${row.p50.toFixed(0)} | ${row.p95.toFixed(0)} | ${row.medicalP50.toFixed(0)} | ${row.medicalP95.toFixed(0)} | ${(row.p50 / row.medicalP50).toFixed(2)} | ${(row.p95 / row.medicalP50).toFixed(2)} | ${(row.p95 / row.medicalP95).toFixed(2)} | ${row.titlesFound.found} / ${row.titlesFound.asked} | ${row.load} |`,
  );
}

// Where the latency goes: each stage's p50 / p95 (ms), per size and for Medical in the same minutes.
const stagedRow = results.find((row) => row.stages);
if (stagedRow) {
  const stageNames = Object.keys(stagedRow.stages);
  console.log(`\nstages, p50 / p95 ms (mosaic retrieve --timings):\n| corpus | ${stageNames.join(' | ')} |\n|---|${stageNames.map(() => '---').join('|')}|`);
  const cells = (stages) => stageNames.map((stage) => `${stages[stage]?.p50.toFixed(1) ?? '–'} / ${stages[stage]?.p95.toFixed(1) ?? '–'}`).join(' | ');
  for (const row of results) {
    if (row.stages) console.log(`| ${row.mb.toFixed(0)} MB | ${cells(row.stages)} |`);
    if (row.medicalStages) console.log(`| Medical (beside ${row.mb.toFixed(0)} MB) | ${cells(row.medicalStages)} |`);
  }
}

// --baseline <tree>: a built copy of the repository at another commit (its CLI and its packages).
const baseCli = values.baseline ? resolve(values.baseline, 'apps/demo/dist/cli.js') : values['base-cli'];
if (baseCli) {
  if (!existsSync(baseCli)) throw new Error(`${baseCli} does not exist: --baseline names a built copy of the repository`);
  const corpus = values['throughput-corpus'] ? resolve(values['throughput-corpus']) : assemble(Number(values['throughput-size']));
  const bytes = values['throughput-corpus'] ? du(corpus) : corpusBytes(corpus);
  log(`throughput on ${corpus}: this CLI, then ${baseCli} (load ${load()})`);
  const mine = build(values.cli, corpus, join(work, 'throughput-new'));
  const base = build(baseCli, corpus, join(work, 'throughput-base'));
  const mineLoad = loadSeconds(mine.dir).load;
  const baseLoad = values.baseline ? loadSeconds(base.dir, resolve(values.baseline, 'apps/demo/scripts')).load : undefined;
  const line = {
    date: new Date().toISOString(),
    throughput: {
      corpus,
      mb: bytes / 1e6,
      newSeconds: mine.seconds,
      baseSeconds: base.seconds,
      speedup: base.seconds / mine.seconds,
      newPeakGb: mine.peakRssMb / 1024,
      basePeakGb: base.peakRssMb / 1024,
      newIndexMb: du(mine.dir) / 1e6,
      baseIndexMb: du(base.dir) / 1e6,
      newLoadSeconds: mineLoad,
      baseLoadSeconds: baseLoad,
    },
    load: load(),
  };
  appendFileSync(join(work, 'results.jsonl'), `${JSON.stringify(line)}\n`);
  const t = line.throughput;
  console.log(
    `\nthroughput, ${t.mb.toFixed(1)} MB (${corpus}):\n` +
      `| build | build s | MB/s | peak RSS GiB | index MB | load s |\n|---|---|---|---|---|---|\n` +
      `| this | ${t.newSeconds.toFixed(0)} | ${(t.mb / t.newSeconds).toFixed(3)} | ${t.newPeakGb.toFixed(2)} | ${t.newIndexMb.toFixed(0)} | ${t.newLoadSeconds.toFixed(1)} |\n` +
      `| base | ${t.baseSeconds.toFixed(0)} | ${(t.mb / t.baseSeconds).toFixed(3)} | ${t.basePeakGb.toFixed(2)} | ${t.baseIndexMb.toFixed(0)} | ${t.baseLoadSeconds === undefined ? '–' : t.baseLoadSeconds.toFixed(1)} |\n` +
      `speedup ${t.speedup.toFixed(2)}× (base s ÷ this s); load ${line.load}`,
  );
}
