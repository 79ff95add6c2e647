import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { findWorkspaceRoot } from '@mosaic/encoders/internal';
import { buildCorpusIndexes, createOfflineExtractor, readCorpusJson } from '@mosaic/indexing';
import { corpusChecksum } from '@mosaic/indexing/internal';
import { createProgressReporter } from '../progress-reporter.js';
import { writeSampleCorpus } from '@mosaic/evaluation/sample';
import { parseCommandArgs, positiveInteger } from '../args.js';
import { chooseEncoder } from '../choose-components.js';
import { formatRetrieval, pathNames } from '../format-retrieval.js';
import { locateIndexes, type LocatedIndex } from '../index-locator.js';
import { chooseAnalyzer, chooseGenerator, openIndex, openPipeline } from '../open-pipeline.js';
import { readQuestions } from '../questions.js';

export const DEMO_HELP = `mosaic demo [options]

The main job on the embedded default, offline: index a corpus (GraphRAG-Bench Medical from
../shared/datasets/graphrag-bench when present, else the built-in sample corpus), then answer
sample questions — one per question type — printing policy, seeds, paths, stop reason, windows
and an extractive answer. An index is reused only when it was built from the same corpus text
(its manifest's corpusChecksum) with the same encoder; otherwise that corpus is indexed again.

  --corpus FILE         corpus JSON (default: ../shared/datasets/graphrag-bench/medical.json)
  --questions FILE      questions to sample from (default: the matching *_questions.dev.json)
  --index DIR           where indexes live (default: .mosaic/indexes)
  --count N             questions to answer (default 4)
  --rebuild             rebuild the index even if one exists
  --verbose             also print each question's policy controls, seeds, paths and timings
`;

export async function demoCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs('demo', argv, {
    corpus: { type: 'string' },
    questions: { type: 'string' },
    index: { type: 'string' },
    count: { type: 'string' },
    rebuild: { type: 'boolean' },
    verbose: { type: 'boolean' },
  });
  if (values.help) return void process.stdout.write(DEMO_HELP);
  const root = findWorkspaceRoot(process.cwd()) ?? process.cwd();
  const shared = resolve(root, '..', 'shared', 'datasets', 'graphrag-bench');
  let corpus = values.corpus as string | undefined;
  let questionsPath = values.questions as string | undefined;
  if (!corpus) {
    if (existsSync(join(shared, 'medical.json'))) {
      corpus = join(shared, 'medical.json');
      questionsPath ??= join(shared, 'medical_questions.dev.json');
    } else {
      const files = await writeSampleCorpus(mkdtempSync(join(tmpdir(), 'mosaic-demo-')));
      process.stdout.write(`(no ../shared/datasets/graphrag-bench; using the built-in sample corpus)\n`);
      corpus = files.medicalPath;
      questionsPath ??= files.medicalQuestionsPath;
    }
  }
  const indexRoot = resolve(root, (values.index as string | undefined) ?? join('.mosaic', 'indexes'));
  const encoder = await chooseEncoder('embedded');
  // Reuse an index only when it was built from this very corpus text (corpusChecksum) with this encoder.
  const corpora = await readCorpusJson({ path: corpus });
  let existing = new Map<string, LocatedIndex>();
  if (!values.rebuild && existsSync(indexRoot)) {
    try {
      existing = locateIndexes(indexRoot);
    } catch {
      existing = new Map();
    }
  }
  const stale: string[] = [];
  for (const { corpus: name, documents } of corpora) {
    const found = existing.get(name);
    if (!found) {
      stale.push(name);
    } else if (found.manifest.encoder.id !== encoder.id) {
      process.stdout.write(`the index of ${name} in ${found.dir} was built with encoder ${found.manifest.encoder.id}, not ${encoder.id}: rebuilding it\n`);
      stale.push(name);
    } else if (found.manifest.corpusChecksum !== corpusChecksum(documents)) {
      process.stdout.write(
        `the index of ${name} in ${found.dir} was built from another text of that corpus (its corpusChecksum differs from ${corpus}): rebuilding it\n`,
      );
      stale.push(name);
    }
  }
  if (stale.length > 0) {
    process.stdout.write(`indexing ${stale.join(', ')} of ${corpus} into ${indexRoot} (offline extractor, ${encoder.id})\n`);
    const progress = createProgressReporter();
    await buildCorpusIndexes({ corpusPath: corpus, corpora: stale, outDir: indexRoot, encoder, extractor: createOfflineExtractor(), onProgress: progress });
    progress.done();
  } else {
    process.stdout.write(`reusing the index in ${indexRoot}: same corpus (corpusChecksum) and encoder (--rebuild to rebuild)\n`);
  }
  const indexes = locateIndexes(indexRoot);
  const count = positiveInteger('count', values.count, 4);
  const all = questionsPath && existsSync(questionsPath) ? readQuestions(questionsPath) : [];
  const byType = new Map<string, (typeof all)[number]>();
  for (const q of all) if (indexes.has(q.source ?? '') && !byType.has(q.question_type ?? '')) byType.set(q.question_type ?? '', q);
  const picked = [...byType.values(), ...all.filter((q) => indexes.has(q.source ?? ''))].filter((q, i, a) => a.indexOf(q) === i).slice(0, count);
  const analyzer = chooseAnalyzer('offline');
  const generator = chooseGenerator('extractive');
  // One pipeline per index, so that the questions share its loaded caches (BM25 postings, text features).
  const pipelines = new Map<string, ReturnType<typeof openPipeline>>();
  const opened = new Map<string, Awaited<ReturnType<typeof openIndex>>>();
  for (const q of picked) {
    const located = indexes.get(q.source!)!;
    let mosaic = pipelines.get(located.dir);
    if (!mosaic) {
      const index = await openIndex(located, encoder);
      opened.set(located.dir, index);
      pipelines.set(located.dir, (mosaic = openPipeline({ index, analyzer, generator })));
    }
    const result = await mosaic.ask({ question: { id: q.id, text: q.question } });
    const verbose = values.verbose === true;
    const names = verbose ? await pathNames(opened.get(located.dir)!, result) : undefined;
    const type = (q.question_type ?? 'question').toLowerCase();
    process.stdout.write(
      `\n${'='.repeat(100)}\nA ${type} question (${q.id})\n${formatRetrieval(result, { windows: 3, verbose, names })}\nExpected answer: ${q.answer ?? '–'}\n`,
    );
  }
}
