import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmbeddedEncoder } from '@mosaic/encoders';
import { evaluateRetrieval, type GoldQuestion, type RetrievalRecord } from '@mosaic/evaluation';
import { buildIndex, createOfflineExtractor, loadIndex, readCorpusJson } from '@mosaic/indexing';
import { createMosaic } from '@mosaic/pipeline';
import type { Encoder } from '@mosaic/spec';

/** This package's folder (questions.json and baseline.json live here). */
export const GATE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** One corpus of the question set: which file, which of its corpus names to index, which question ids. */
export interface GateCorpus {
  corpusFile: string;
  questionFile: string;
  corpusNames: string[];
  ids: string[];
}

export interface GateQuestionSet {
  corpora: Record<string, GateCorpus>;
}

/** The committed baseline: `er` per corpus and overall (0–1), and the tolerance in points (0–100). */
export interface GateBaseline {
  er: Record<string, number>;
  tolerancePoints: number;
  /** Why this baseline is what it is (the commit that changed it says so too). */
  note: string;
}

export interface GateCorpusResult {
  name: string;
  questions: number;
  /** METRICS.md evidence recall of the default pipeline, mean over the questions that have evidence. */
  er: number;
  latencyMs: { p50: number; p95: number };
  indexMs: number;
}

export interface GateResult {
  corpora: GateCorpusResult[];
  /** Mean `er` over every question of the set. */
  overall: { questions: number; er: number; latencyMs: { p50: number; p95: number } };
}

export interface GateVerdict {
  pass: boolean;
  /** One line per figure: measured, baseline, difference in points, and the verdict. */
  lines: string[];
}

/**
 * The GraphRAG-Bench folder: `$MOSAIC_DATASETS_DIR` (the variable @mosaic/testing reads too), else
 * `../shared/datasets/graphrag-bench` beside the repository.
 */
export function datasetsDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env.MOSAIC_DATASETS_DIR ? resolve(env.MOSAIC_DATASETS_DIR) : resolve(GATE_DIR, '..', '..', '..', 'shared', 'datasets', 'graphrag-bench');
}

export function readQuestionSet(path = join(GATE_DIR, 'questions.json')): GateQuestionSet {
  return JSON.parse(readFileSync(path, 'utf8')) as GateQuestionSet;
}

export function readBaseline(path = join(GATE_DIR, 'baseline.json')): GateBaseline {
  return JSON.parse(readFileSync(path, 'utf8')) as GateBaseline;
}

/** Linear-interpolated percentile (q in [0, 1]) of a non-empty list. */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}

/** The gold questions of one corpus of the set, in the set's order; a missing id is an error (the split changed). */
export function goldQuestions(datasetDir: string, corpus: GateCorpus): GoldQuestion[] {
  const all = JSON.parse(readFileSync(join(datasetDir, corpus.questionFile), 'utf8')) as GoldQuestion[];
  const byId = new Map(all.map((question) => [question.id, question]));
  const missing = corpus.ids.filter((id) => !byId.has(id));
  if (missing.length > 0)
    throw new Error(`${corpus.questionFile}: ${missing.length} question ids of the gate are not there (${missing.slice(0, 3).join(', ')}…)`);
  return corpus.ids.map((id) => byId.get(id)!);
}

/**
 * Builds each corpus's index the way `mosaic index` does (offline extractor, the given encoder, the
 * default chunking and windows), loads it back, and retrieves every question of the set with the
 * default pipeline (`createMosaic({ index })`). Scores METRICS.md `er` with @mosaic/evaluation.
 */
export async function runGate(options: { datasetDir: string; workDir: string; questionSet?: GateQuestionSet; encoder?: Encoder }): Promise<GateResult> {
  const set = options.questionSet ?? readQuestionSet();
  const encoder = options.encoder ?? (await createEmbeddedEncoder());
  const extractor = createOfflineExtractor();
  const corpora: GateCorpusResult[] = [];
  const allScores: number[] = [];
  const allLatencies: number[] = [];
  for (const [name, corpus] of Object.entries(set.corpora)) {
    const gold = goldQuestions(options.datasetDir, corpus);
    const wanted = new Set(corpus.corpusNames);
    const documents = (await readCorpusJson({ path: join(options.datasetDir, corpus.corpusFile) })).filter((c) => wanted.has(c.corpus));
    if (documents.length !== wanted.size) throw new Error(`${corpus.corpusFile}: expected corpora ${[...wanted].join(', ')}`);
    const started = performance.now();
    const indexes = new Map<string, Awaited<ReturnType<typeof loadIndex>>>();
    for (const { corpus: corpusName, documents: docs } of documents) {
      const outDir = join(options.workDir, corpusName);
      await buildIndex({ documents: docs, corpus: corpusName, encoder, extractor, outDir });
      indexes.set(corpusName, await loadIndex({ dir: outDir, encoder }));
    }
    const indexMs = performance.now() - started;
    const records: RetrievalRecord[] = [];
    const latencies: number[] = [];
    const pipelines = new Map([...indexes].map(([key, index]) => [key, createMosaic({ index })]));
    for (const question of gold) {
      const source = question.source ?? name;
      const mosaic = pipelines.get(source);
      if (!mosaic) throw new Error(`question ${question.id}: no index for its source ${source}`);
      const retrieval = await mosaic.retrieve({ question: question.question });
      latencies.push(retrieval.timings.total);
      records.push({ id: question.id, contexts: retrieval.windows.map((window) => window.text) });
    }
    const report = evaluateRetrieval({ gold, results: records });
    for (const scores of report.perQuestion) if (scores.er !== null) allScores.push(scores.er);
    allLatencies.push(...latencies);
    corpora.push({
      name,
      questions: gold.length,
      er: report.overall.er ?? 0,
      latencyMs: { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95) },
      indexMs,
    });
  }
  const er = allScores.length === 0 ? 0 : allScores.reduce((sum, value) => sum + value, 0) / allScores.length;
  return {
    corpora,
    overall: {
      questions: corpora.reduce((sum, c) => sum + c.questions, 0),
      er,
      latencyMs: { p50: percentile(allLatencies, 0.5), p95: percentile(allLatencies, 0.95) },
    },
  };
}

const points = (value: number) => (value * 100).toFixed(2);

/**
 * Each corpus's `er` and the overall `er` against the baseline: a figure more than `tolerancePoints`
 * below its baseline fails the gate. Latency is printed beside it, never gated (CI machines are shared).
 * A figure above baseline + tolerance passes with a note to raise the baseline (in a commit that says why).
 */
export function checkGate(result: GateResult, baseline: GateBaseline): GateVerdict {
  const lines: string[] = [];
  let pass = true;
  const rows = [
    ...result.corpora.map((c) => ({ name: c.name, questions: c.questions, er: c.er, latencyMs: c.latencyMs })),
    { name: 'overall', ...result.overall },
  ];
  for (const row of rows) {
    const expected = baseline.er[row.name];
    const latency = `latency p50 ${row.latencyMs.p50.toFixed(1)} ms, p95 ${row.latencyMs.p95.toFixed(1)} ms (not gated)`;
    if (expected === undefined) {
      pass = false;
      lines.push(`FAIL ${row.name}: er ${points(row.er)} (${row.questions} questions) has no baseline; ${latency}`);
      continue;
    }
    const delta = (row.er - expected) * 100;
    const below = delta < -baseline.tolerancePoints;
    if (below) pass = false;
    const verdict = below ? 'FAIL' : 'ok  ';
    const note = delta > baseline.tolerancePoints ? ' — above the baseline by more than the tolerance: raise baseline.json in a commit that says why' : '';
    lines.push(
      `${verdict} ${row.name}: er ${points(row.er)} vs baseline ${points(expected)} (${delta >= 0 ? '+' : ''}${delta.toFixed(2)} points, tolerance ${baseline.tolerancePoints}; ${row.questions} questions); ${latency}${note}`,
    );
  }
  return { pass, lines };
}

/** Whether the GraphRAG-Bench files the set needs are all present. */
export function datasetPresent(datasetDir: string, set: GateQuestionSet = readQuestionSet()): boolean {
  return Object.values(set.corpora).every((corpus) => existsSync(join(datasetDir, corpus.corpusFile)) && existsSync(join(datasetDir, corpus.questionFile)));
}
